// SPDX-License-Identifier: MIT
/*
 * jcheck: read a latctl JSON result with cJSON and print what the VM tests
 * need as plain lines for grep and awk (the initramfs has busybox only).
 *
 *   jcheck get FILE PATH    the value at PATH (a.b.0.c): scalars as text,
 *                           objects and arrays as compact JSON; exit 3 if absent
 *   jcheck rows FILE PATH   one line per element of the array at PATH, its
 *                           members flattened: key=value, nested objects as
 *                           parent.key=value, arrays as key.N...=value and
 *                           key#=length; blanks in strings become '_'
 *   jcheck sums FILE PATH OBJ  per element of the array at PATH:
 *                           "index=I duration_ticks=D sum=S" where S adds the
 *                           numbers of member object OBJ (breakdown_ticks)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

static cJSON *load(const char *path)
{
	FILE *f = fopen(path, "r");
	cJSON *doc = NULL;
	char *text;
	long len;

	if (!f) {
		fprintf(stderr, "jcheck: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = malloc((size_t)len + 1);
	if (text && fread(text, 1, (size_t)len, f) == (size_t)len) {
		text[len] = '\0';
		doc = cJSON_Parse(text);
	}
	if (!doc)
		fprintf(stderr, "jcheck: %s: not valid JSON\n", path);
	free(text);
	fclose(f);
	return doc;
}

/* Follow a dotted path; numeric parts index arrays. */
static cJSON *walk(cJSON *j, const char *path)
{
	char buf[256], *part, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (part = strtok_r(buf, ".", &save); j && part; part = strtok_r(NULL, ".", &save))
		j = cJSON_IsArray(j) ? cJSON_GetArrayItem(j, atoi(part))
				     : cJSON_GetObjectItemCaseSensitive(j, part);
	return j;
}

/* A number as an integer when it is one (TSC ticks stay exact below 2^53). */
static void print_number(double v)
{
	if (v == (double)(long long)v)
		printf("%lld", (long long)v);
	else
		printf("%.17g", v);
}

static void print_scalar(const cJSON *j, int blanks)
{
	const char *s;
	char *text;

	if (cJSON_IsNumber(j)) {
		print_number(j->valuedouble);
	} else if (cJSON_IsString(j)) {
		for (s = j->valuestring; *s; s++)
			putchar(blanks && (*s == ' ' || *s == '\t' || *s == '\n') ? '_' : *s);
	} else if (cJSON_IsBool(j)) {
		fputs(cJSON_IsTrue(j) ? "true" : "false", stdout);
	} else if (cJSON_IsNull(j)) {
		fputs("null", stdout);
	} else {
		text = cJSON_PrintUnformatted(j);
		fputs(text ? text : "?", stdout);
		free(text);
	}
}

/* Members of j as " prefix.key=value", recursively. */
static void flatten(const cJSON *j, const char *prefix)
{
	const cJSON *m;
	char key[256];
	int i = 0;

	cJSON_ArrayForEach(m, j) {
		if (cJSON_IsArray(j))
			snprintf(key, sizeof(key), "%s%s%d", prefix, *prefix ? "." : "", i++);
		else
			snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", m->string);
		if (cJSON_IsArray(m))
			printf(" %s#=%d", key, cJSON_GetArraySize(m));
		if (cJSON_IsObject(m) || cJSON_IsArray(m)) {
			flatten(m, key);
			continue;
		}
		printf(" %s=", key);
		print_scalar(m, 1);
	}
}

static int rows(cJSON *arr)
{
	const cJSON *el;

	if (!cJSON_IsArray(arr))
		return 3;
	cJSON_ArrayForEach(el, arr) {
		printf("row");
		flatten(el, "");
		putchar('\n');
	}
	return 0;
}

/* Sum of the numeric members of each element's object obj. */
static int sums(cJSON *arr, const char *obj)
{
	const cJSON *el, *m;
	double sum;

	if (!cJSON_IsArray(arr))
		return 3;
	cJSON_ArrayForEach(el, arr) {
		sum = 0;
		cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(el, obj))
			sum += cJSON_IsNumber(m) ? m->valuedouble : 0;
		printf("index=");
		print_scalar(cJSON_GetObjectItemCaseSensitive(el, "index"), 1);
		printf(" duration_ticks=");
		print_scalar(cJSON_GetObjectItemCaseSensitive(el, "duration_ticks"), 1);
		printf(" sum=");
		print_number(sum);
		putchar('\n');
	}
	return 0;
}

int main(int argc, char **argv)
{
	cJSON *doc, *at;
	int ret = 0;

	if (argc < 4 || (strcmp(argv[1], "get") && strcmp(argv[1], "rows") &&
			 strcmp(argv[1], "sums")) || (!strcmp(argv[1], "sums") && argc != 5)) {
		fprintf(stderr, "usage: jcheck get|rows FILE PATH | jcheck sums FILE PATH OBJ\n"
				"example: jcheck rows r.json slow.iterations\n");
		return 2;
	}
	doc = load(argv[2]);
	if (!doc)
		return 2;
	at = walk(doc, argv[3]);
	if (!at) {
		fprintf(stderr, "jcheck: %s: no %s\n", argv[2], argv[3]);
		ret = 3;
	} else if (!strcmp(argv[1], "get")) {
		print_scalar(at, 0);
		putchar('\n');
	} else if (!strcmp(argv[1], "rows")) {
		ret = rows(at);
	} else {
		ret = sums(at, argv[4]);
	}
	cJSON_Delete(doc);
	return ret;
}
