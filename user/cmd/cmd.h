/* SPDX-License-Identifier: MIT */
/*
 * The subcommands, one file each (cmd_NAME.c), leaves of the layers: each
 * parses its arguments, calls the layers below and prints. main.c's table
 * maps names to these. A subcommand returns its exit code (lib/latctl.h).
 */
#ifndef LATCTL_CMD_H
#define LATCTL_CMD_H

int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
/* doctor --probe-hypervisor (doctor_probe.c): the probe, printed or as
 * JSON, and stored; an exit code. */
int lat_doctor_probe(int json);
int cmd_latmon(int argc, char **argv);
int cmd_backends(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_restore(int argc, char **argv);

#endif /* LATCTL_CMD_H */
