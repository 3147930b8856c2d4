/*
 * fuzz_events.c - libFuzzer target for the -e event parser (src/event).
 *
 * Each input, cut at its first NUL, is parsed as an -e argument onto a
 * list that already holds one event; a failure must leave that list as it
 * was, and a success must add events that all have a name and a leader
 * inside the list.  Any crash, hang or sanitizer report is a bug.  (PMU
 * and tracepoint names read sysfs and tracefs of the machine it runs on.)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../src/event/events.h"
#include "../src/util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ev_list list = { 0 };
	struct ev_error err;
	char *str = malloc(size + 1);

	if (!str)
		return 0;
	error_set_quiet(2);
	memcpy(str, data, size);
	str[size] = 0;
	if (ev_parse(&list, "cpu-clock", &err))
		abort();
	if (ev_parse(&list, str, &err)) {
		if (list.nr != 1 || err.pos < 0 || (size_t)err.pos > strlen(str) + 1)
			abort();
	} else {
		for (int i = 0; i < list.nr; i++)
			if (!list.events[i].name || list.events[i].leader < 0 ||
			    list.events[i].leader > i)
				abort();
	}
	ev_list_free(&list);
	free(str);
	return 0;
}
