// SPDX-License-Identifier: MIT
/*
 * A program without markers: N rounds of mapping 64 MiB, touching every
 * page and unmapping it (the munmap then frees 16384 pages), with short
 * getpid calls between. Its slow system calls should be the munmaps.
 *   calls N
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define SIZE	(64UL << 20)

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20, i, k;

	for (i = 0; i < n; i++) {
		char *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return 1;
		madvise(p, SIZE, MADV_NOHUGEPAGE);
		for (k = 0; k < (long)(SIZE / 4096); k++)
			p[k * 4096] = 1;
		munmap(p, SIZE);
		for (k = 0; k < 50; k++)
			getppid();
	}
	return 0;
}
