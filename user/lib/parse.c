// SPDX-License-Identifier: MIT
/* The strict number, duration and threshold parsers of every command line. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"

int lat_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;		/* also "-1", "+1", " 1" and "" */
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int lat_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !(isdigit((unsigned char)s[0]) || s[0] == '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s)
		return -EINVAL;
	if (errno == ERANGE || !isfinite(v) || v <= 0)
		return -ERANGE;
	*out = v;
	return 0;
}

/* ns per unit for a suffix, 0 if unknown. */
static double unit_ns(const char *u)
{
	static const struct { const char *name; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(u, units[i].name))
			return units[i].ns;
	return 0;
}

int lat_parse_duration_ns(const char *s, double bare_unit_ns, double *ns)
{
	double v, unit;
	char *end;

	if (!s || !(isdigit((unsigned char)s[0]) || s[0] == '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s)
		return -EINVAL;
	unit = *end ? unit_ns(end) : bare_unit_ns;
	if (unit == 0)
		return -EINVAL;
	if (errno == ERANGE || !isfinite(v * unit) || v <= 0 || v * unit > 1e15)
		return -ERANGE;
	*ns = v * unit;
	return 0;
}

int lat_parse_threshold(const char *s, struct lat_threshold *t)
{
	double v;
	int ret;

	if (s && s[0] == 'p') {
		ret = lat_parse_double(s + 1, &v);
		if (ret || v >= 100)
			return -EINVAL;
		t->is_percentile = 1;
		t->value = v;
		return 0;
	}
	ret = lat_parse_duration_ns(s, 0, &v);
	if (ret)
		return ret;
	t->is_percentile = 0;
	t->value = v;
	return 0;
}

/* One line for a rejected value, naming the option and what to give. */
int lat_opt_bad_value(const char *opt, const char *arg, int err, const char *want)
{
	const char *why = "is not valid";

	if (arg[0] == '-')
		why = "is negative";
	else if (err == -ERANGE)
		why = "is out of range";
	fprintf(stderr, "latctl: %s '%s' %s; give %s\n", opt, arg, why, want);
	return -EINVAL;
}

int lat_opt_parse_count(const char *opt, const char *arg, uint64_t min,
			uint64_t max, uint64_t *out)
{
	char want[96];
	int ret;

	ret = lat_parse_u64(arg, min, max, out);
	if (!ret)
		return 0;
	snprintf(want, sizeof(want), "a whole number from %llu to %llu",
		 (unsigned long long)min, (unsigned long long)max);
	return lat_opt_bad_value(opt, arg, ret, want);
}
