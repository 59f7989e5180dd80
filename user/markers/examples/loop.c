// SPDX-License-Identifier: MIT
/*
 * Two marker lines around each iteration of your own loop. Build and run:
 *	cc -O2 loop.c $(pkg-config --cflags --libs latctl) -o loop
 *	latctl run exec -- ./loop
 * Each iteration touches one fresh 4 KiB page (a page fault) and
 * sometimes maps a 2 MiB area (a huge page, when THP allows it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <latctl.h>

#define PAGES	20000

int main(void)
{
	char *buf = mmap(NULL, (size_t)PAGES * 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	if (buf == MAP_FAILED)
		return perror("mmap"), 1;
	for (i = 0; i < PAGES; i++) {
		latctl_begin();
		buf[(size_t)i * 4096] = 1;	/* the first touch: a page fault */
		latctl_end();
	}
	printf("touched %d pages\n", PAGES);
	return 0;
}
