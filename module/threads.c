// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread state of the target process, kept outside task_struct: an
 * open-addressing table keyed by tid, slots claimed with cmpxchg, cleared at
 * START. A slot is only written by the thread itself (THP marks) or by the
 * CPU switching it out, and read by the CPU switching it back in, which the
 * scheduler orders after the switch-out.
 */
#include <linux/vmalloc.h>
#include <linux/hash.h>
#include "latmon.h"

#define THREAD_BITS	12
#define THREAD_SLOTS	(1U << THREAD_BITS)
#define THREAD_PROBES	64

static struct latmon_thread *threads;

int latmon_threads_init(void)
{
	threads = vzalloc(THREAD_SLOTS * sizeof(*threads));
	return threads ? 0 : -ENOMEM;
}

void latmon_threads_exit(void)
{
	vfree(threads);
}

/* Forget every thread; only while no probe is attached. */
void latmon_threads_reset(void)
{
	memset(threads, 0, THREAD_SLOTS * sizeof(*threads));
}

/*
 * Find the slot of @tid, claiming a free one if @create. NULL when absent or
 * when the table is full around its hash (the caller counts a miss).
 */
struct latmon_thread *latmon_thread_get(pid_t tid, bool create)
{
	u32 h = hash_32(tid, THREAD_BITS);
	unsigned int i;

	for (i = 0; i < THREAD_PROBES; i++) {
		struct latmon_thread *t = &threads[(h + i) & (THREAD_SLOTS - 1)];
		pid_t cur = READ_ONCE(t->tid);

		if (cur == tid)
			return t;
		if (cur)
			continue;
		if (!create)
			return NULL;
		cur = cmpxchg(&t->tid, 0, tid);
		if (!cur || cur == tid)
			return t;
	}
	return NULL;
}
