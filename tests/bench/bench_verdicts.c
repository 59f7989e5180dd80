// SPDX-License-Identifier: MIT
/*
 * How often compare and check are wrong, by simulation: runs of a metric
 * drawn as log-normal values with a per-invocation effect (intra-class
 * correlation ICC: runs of one invocation share part of their noise),
 * judged with the statistics of compare and check (lat_pair_values, the
 * same code). Prints, per runs a side n:
 *   - A/A (same configuration, separate invocations): how often the primary
 *     metric is significant (a table flags anything only then: its other
 *     rows are tested only when the primary changed), how often check says
 *     bad and how often good;
 *   - known shifts x1.1 .. x2 of every run: how often check says bad, good;
 *   - a bisect step's sequential rule (scripts/bisect/bisect-step.sh
 *     --max-boots K): a baseline of one boot, the step boots again with R
 *     more runs while check says 125, each look at 5%/K (check --looks K),
 *     against one look: A/A bad and good, x1.5 bad and good, 125 left and
 *     the runs used, with the runs of a boot sharing its effect (ICC).
 *   bench_verdicts [TRIALS [CV [ICC]]]  (defaults 2000 0.15 0.3)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/pair.h"
#include "compare/signif.h"

#define MAXN	64
#define REGRESSION	10.0	/* check --regression, % */

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* n runs of one invocation: log-sd sd split into a shared part (ICC of the
 * variance) and each run's own, times factor. */
static void invocation(double *v, size_t n, double sd, double icc, double factor)
{
	double shared = gauss() * sd * sqrt(icc);

	for (size_t i = 0; i < n; i++)
		v[i] = factor * 10000 * exp(shared + gauss() * sd * sqrt(1 - icc));
}

struct tally {
	double sig, bad, good;
};

/* check's decision as cmd_check.c makes it: 1 bad, 0 good, 125. */
static int check_of(const struct lat_pair *p)
{
	if (!p->verdict || p->missing)
		return 125;
	if (p->bound_lo > REGRESSION)
		return 1;
	return p->bound_hi < REGRESSION ? 0 : 125;
}

static struct tally trial(size_t n, double sd, double icc, double factor, int trials)
{
	double b[MAXN], w[MAXN];
	struct lat_pair p;
	struct tally t = { 0 };
	int i, c;

	for (i = 0; i < trials; i++) {
		invocation(b, n, sd, icc, 1);
		invocation(w, n, sd, icc, factor);
		lat_pair_values(b, n, w, n, n >= 4, &p);
		c = check_of(&p);
		t.sig += p.significant;
		t.bad += c == 1;
		t.good += c == 0;

	}
	t.sig /= trials;
	t.bad /= trials;
	t.good /= trials;
	return t;
}

/* One bisect step under the sequential rule: a baseline of nb runs of one
 * boot, then boots of r runs each (factor times slower) while check says
 * 125, at most k boots, each look's bounds at 5%/k. Its verdict; the runs
 * the step took into *used. */
static int seq_step(size_t nb, size_t r, size_t k, double sd, double icc, double factor,
		    size_t *used)
{
	double b[MAXN], w[MAXN], bc[MAXN], wc[MAXN];
	double conf = 1 - (1 - LAT_PAIR_BOUND_CONF) / (double)k;
	struct lat_pair p;
	size_t n = 0, look;
	int c = 125;

	invocation(b, nb, sd, icc, 1);
	for (look = 0; look < k && c == 125; look++) {
		invocation(w + n, r, sd, icc, factor);
		n += r;
		memcpy(bc, b, nb * sizeof(*b));
		memcpy(wc, w, n * sizeof(*w));
		lat_pair_values_conf(bc, nb, wc, n, nb >= 4 && n >= 4, conf, &p);
		c = check_of(&p);
	}
	*used = n;
	return c;
}

struct seq_tally {
	double bad, good, runs;
};

static struct seq_tally seq_trials(size_t nb, size_t r, size_t k, double sd, double icc,
				   double factor, int trials)
{
	struct seq_tally t = { 0 };
	size_t used;
	int i, c;

	for (i = 0; i < trials; i++) {
		c = seq_step(nb, r, k, sd, icc, factor, &used);
		t.bad += c == 1;
		t.good += c == 0;
		t.runs += (double)used;
	}
	t.bad /= trials;
	t.good /= trials;
	t.runs /= trials;
	return t;
}

static void seq_table(double sd, double icc, int trials)
{
	static const size_t cfg[][3] = {	/* baseline runs, runs a boot, boots */
		{ 5, 5, 1 }, { 5, 5, 2 }, { 5, 5, 3 }, { 15, 5, 1 }, { 15, 15, 1 },
		{ 15, 5, 3 }, { 15, 5, 4 }, { 20, 5, 4 }, { 20, 20, 1 },
	};
	struct seq_tally a, x;
	size_t i;

	printf("a bisect step, one boot's baseline, boots of R runs while 125 (ICC %.2f):\n", icc);
	printf("  %5s %3s %5s  %8s %8s %8s %6s  %8s %8s %8s %6s\n", "base", "R", "boots",
	       "A/A bad", "A/A good", "A/A 125", "runs", "x1.5 bad", "x1.5 good", "x1.5 125", "runs");
	for (i = 0; i < sizeof(cfg) / sizeof(cfg[0]); i++) {
		a = seq_trials(cfg[i][0], cfg[i][1], cfg[i][2], sd, icc, 1, trials);
		x = seq_trials(cfg[i][0], cfg[i][1], cfg[i][2], sd, icc, 1.5, trials);
		printf("  %5zu %3zu %5zu  %7.1f%% %7.1f%% %7.1f%% %6.1f  %7.1f%% %8.1f%% %7.1f%% %6.1f\n",
		       cfg[i][0], cfg[i][1], cfg[i][2], a.bad * 100, a.good * 100,
		       (1 - a.bad - a.good) * 100, a.runs, x.bad * 100, x.good * 100,
		       (1 - x.bad - x.good) * 100, x.runs);
	}
}

int main(int argc, char **argv)
{
	int trials = argc > 1 ? atoi(argv[1]) : 2000;
	double cv = argc > 2 ? atof(argv[2]) : 0.15, icc = argc > 3 ? atof(argv[3]) : 0.3;
	static const double shifts[] = { 1.1, 1.2, 1.5, 2.0 };
	static const size_t ns[] = { 3, 4, 5, 6, 8, 10, 12, 20, 30 };
	double sd = sqrt(log(1 + cv * cv));
	struct tally t;
	size_t i, k;

	if (trials < 10 || cv <= 0 || icc < 0 || icc >= 1)
		return 2;
	printf("bench-verdicts: %d trials, run-to-run CV %.2f, intra-class correlation %.2f, --regression %.0f%%\n",
	       trials, cv, icc, REGRESSION);
	printf("A/A, separate invocations:\n  %4s %18s %10s %10s\n", "n", "table flags (sig)", "check bad", "check good");
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		t = trial(ns[i], sd, 0, 1, trials);
		printf("  %4zu %17.1f%% %9.1f%% %9.1f%%\n", ns[i], t.sig * 100, t.bad * 100, t.good * 100);
	}
	printf("A/A, runs within one invocation each (ICC %.2f):\n  %4s %12s %10s\n", icc, "n", "primary sig", "check bad");
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		t = trial(ns[i], sd, icc, 1, trials);
		printf("  %4zu %11.1f%% %9.1f%%\n", ns[i], t.sig * 100, t.bad * 100);
	}
	for (k = 0; k < sizeof(shifts) / sizeof(shifts[0]); k++) {
		printf("shift x%.1f of every run (separate invocations):\n  %4s %10s %10s\n", shifts[k], "n", "check bad", "check good");
		for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
			t = trial(ns[i], sd, 0, shifts[k], trials);
			printf("  %4zu %9.1f%% %9.1f%%\n", ns[i], t.bad * 100, t.good * 100);
		}
	}
	seq_table(sd, 0, trials);
	seq_table(sd, icc, trials);
	return 0;
}
