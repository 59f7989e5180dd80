// SPDX-License-Identifier: MIT
/*
 * spin: a busy loop pinned to one CPU, with a chosen comm, for the scheduler
 * and interrupt tests (a "hog" that preempts the target, or the target).
 *
 *   spin [--cpu C] [--name NAME] [--seconds S]
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "sync.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		perror("spin: sched_setaffinity");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "name", required_argument, NULL, 'n' },
		{ "seconds", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	double seconds = 1, end;
	volatile unsigned long loops = 0;
	int c, cpu = -1;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': cpu = atoi(optarg); break;
		case 'n': prctl(PR_SET_NAME, optarg, 0, 0, 0); break;
		case 's': seconds = atof(optarg); break;
		default:
			fprintf(stderr, "usage: spin [--cpu C] [--name NAME] [--seconds S]\n");
			return 2;
		}
	}
	if (cpu >= 0 && pin(cpu) < 0)
		return 1;
	if (lm_sync() < 0)
		return 1;
	/* The clock every 4096 loops: where clock_gettime is a system call
	 * (a guest whose TSC is unstable reads the HPET), the loop stays a
	 * busy loop and not a stream of system-call records. */
	for (end = now() + seconds; (loops & 4095) || now() < end;)
		loops++;
	if (lm_sync() < 0)
		return 1;
	printf("spin: cpu=%d seconds=%.1f loops=%lu\n", sched_getcpu(), seconds, loops);
	return 0;
}
