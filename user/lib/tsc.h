/* SPDX-License-Identifier: MIT */
/* Serialized TSC reads: the clock of every timed iteration and of latmon. */
#ifndef LATCTL_TSC_H
#define LATCTL_TSC_H

#include <sched.h>
#include <stdint.h>

/* Set at start when TSC_AUX does not hold Linux's CPU number (some
 * virtualized hosts put the host's CPU there): CPUs then come from
 * getcpu(), a vDSO call. */
extern int lat_tsc_aux_not_cpu;

/*
 * rdtscp waits for every earlier instruction to finish; the lfence after it
 * keeps later instructions from starting before the read. Used at both ends
 * of an iteration. *cpu gets the CPU number Linux stores in TSC_AUX.
 */
static inline uint64_t lat_tsc(uint16_t *cpu)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) :: "memory");
	*cpu = __builtin_expect(lat_tsc_aux_not_cpu, 0) ? (uint16_t)sched_getcpu() :
							   (uint16_t)(aux & 0xfff);
	return ((uint64_t)hi << 32) | lo;
}

/* TSC frequency in Hz: from the kernel when it tells, else calibrated. */
double lat_tsc_hz(void);

/* Use hz (e.g. latmon's tsc_khz) from now on; from says where it came from. */
void lat_tsc_use_hz(double hz, const char *from);

/* Where lat_tsc_hz() got its value, for the report ("calibrated ..."). */
const char *lat_tsc_hz_source(void);

/* Measured cost of one lat_tsc() pair in TSC ticks (the floor of any sample). */
uint64_t lat_tsc_pair_cost(void);

#endif /* LATCTL_TSC_H */
