#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Reference values for tests/unit/test_signif.c, computed independently of
# user/compare/signif.c: the exact Mann-Whitney p-value by enumerating every split of
# the pooled values into two groups (itertools.combinations), the normal
# approximation from rank sums (average ranks for ties, tie-corrected
# variance, continuity correction 0.5: scipy.stats.mannwhitneyu's formula),
# and the median interval's coverage from math.comb. Run: python3 signif_ref.py
import itertools, math

def ranks(vals):
    order = sorted(range(len(vals)), key=lambda i: vals[i])
    r = [0.0] * len(vals)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and vals[order[j + 1]] == vals[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r

def u_of(x, y):
    r = ranks(list(x) + list(y))
    return sum(r[:len(x)]) - len(x) * (len(x) + 1) / 2

def exact_p(x, y):
    pool, nx = list(x) + list(y), len(x)
    u = u_of(x, y)
    mu = nx * len(y) / 2
    dev = abs(u - mu)
    hits = total = 0
    for idx in itertools.combinations(range(len(pool)), nx):
        s = set(idx)
        ux = u_of([pool[i] for i in idx], [pool[i] for i in range(len(pool)) if i not in s])
        total += 1
        hits += abs(ux - mu) >= dev - 1e-12
    return min(1.0, hits / total)

def normal_p(x, y):
    nx, ny = len(x), len(y)
    n = nx + ny
    u = u_of(x, y)
    u = max(u, nx * ny - u)
    pool = sorted(list(x) + list(y))
    t = sum(c ** 3 - c for c in (pool.count(v) for v in set(pool)))
    var = nx * ny / 12 * ((n + 1) - t / (n * (n - 1)))
    z = (u - nx * ny / 2 - 0.5) / math.sqrt(var)
    return min(1.0, math.erfc(z / math.sqrt(2)))

def coverage(n, k):   # P(x(k) <= median <= x(n+1-k)) = 1 - 2 P(B <= k-1)
    return 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2 ** n

cases = {
    "exact_3_3_separated": ([1, 2, 3], [4, 5, 6]),
    "exact_5_5_separated": ([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]),
    "exact_5_5_mixed": ([1.1, 2.5, 3.0, 4.2, 6.1], [2.0, 3.5, 5.0, 5.5, 7.0]),
    "exact_4_6": ([10, 12, 15, 20], [11, 13, 14, 16, 17, 30]),
}
for name, (x, y) in cases.items():
    print(f"{name}: exact p = {exact_p(x, y):.10f}")
# Ties: the exact conditional p by the same enumeration (what lat_mwu_p
# computes up to 50 values in all).
for x, y in [([30, 30, 30, 31, 32], [30, 31, 31, 32, 33]), ([1, 1, 1], [2, 2, 2]),
             ([0, 0, 0, 0, 1], [0, 1, 1, 2, 2]), ([5, 5, 6, 6, 7, 7], [6, 7, 7, 8, 8, 9])]:
    print(f"ties {x} {y}: exact p = {exact_p(x, y):.10f}")
big = ([float(i) for i in range(0, 60, 2)], [float(i) + 0.5 for i in range(10, 70, 2)])
print(f"normal_30_30 (x = 0,2..58; y = 10.5,12.5..68.5): normal p = {normal_p(*big):.10f}")
for n in (5, 6, 10, 20):
    best = max((k for k in range(1, (n + 1) // 2 + 1) if coverage(n, k) >= 0.95), default=1)
    print(f"median interval n={n}: k={best} coverage {coverage(n, best):.10f}")
