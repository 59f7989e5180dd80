/* SPDX-License-Identifier: MIT */
/*
 * The strict reader's promise, checked on one valid result document: with
 * any single key deleted (at any depth), `latctl report` renders exactly
 * what it renders for the whole document, or refuses it; it never renders
 * something else. Used by tests/unit/test_rdoc.c and tests/fuzz/fuzz_result.c.
 */
#ifndef LATCTL_TEST_KEY_DELETE_H
#define LATCTL_TEST_KEY_DELETE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "doc/result.h"
#include "report/render.h"

struct key_delete {
	const cJSON *doc;	/* the whole document */
	const char *want;	/* its rendering */
	size_t keys, refused, same;
	char bad[256];		/* the first key whose deletion changed the text */
};

/* Render doc into a new string (NULL: refused); stderr muted by the caller. */
static inline char *key_delete_render(const cJSON *doc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return NULL;
	ret = lat_result_render(doc, f, "key-delete");
	fclose(f);
	if (ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Put item back into o after prev (NULL: first), as it was detached. */
static inline void key_delete_relink(cJSON *o, cJSON *prev, cJSON *item)
{
	if (!prev) {
		item->next = o->child;
		item->prev = o->child ? o->child->prev : item;
		if (o->child)
			o->child->prev = item;
		o->child = item;
		return;
	}
	item->prev = prev;
	item->next = prev->next;
	if (prev->next)
		prev->next->prev = item;
	else
		o->child->prev = item;
	prev->next = item;
}

/* Delete item from o, render, compare, put it back. */
static inline void key_delete_one(struct key_delete *k, cJSON *o, cJSON *item)
{
	cJSON *prev = item == o->child ? NULL : item->prev;
	char *got;

	cJSON_DetachItemViaPointer(o, item);
	got = key_delete_render(k->doc);
	key_delete_relink(o, prev, item);
	k->keys++;
	if (!got)
		k->refused++;
	else if (!strcmp(got, k->want))
		k->same++;
	else if (!k->bad[0])
		snprintf(k->bad, sizeof(k->bad), "%s", item->string);
	free(got);
}

/* Every member of o and of everything inside it. */
static inline void key_delete_walk(struct key_delete *k, cJSON *o)
{
	cJSON *item;

	cJSON_ArrayForEach(item, o) {
		if (cJSON_IsObject(o))
			key_delete_one(k, o, item);
		if (cJSON_IsObject(item) || cJSON_IsArray(item))
			key_delete_walk(k, item);
	}
}

/* 0 if doc keeps the promise (or does not render at all), else -1 with the
 * key in k->bad. */
static inline int key_delete_check(cJSON *doc, struct key_delete *k)
{
	int saved = dup(STDERR_FILENO);
	FILE *null = fopen("/dev/null", "w");
	char *want;

	memset(k, 0, sizeof(*k));
	fflush(stderr);
	if (null)
		dup2(fileno(null), STDERR_FILENO);
	want = key_delete_render(doc);
	k->doc = doc;
	k->want = want;
	if (want)
		key_delete_walk(k, doc);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	if (null)
		fclose(null);
	free(want);
	return k->bad[0] ? -1 : 0;
}

#endif /* LATCTL_TEST_KEY_DELETE_H */
