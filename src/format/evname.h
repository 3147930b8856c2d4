/*
 * evname.h - the names perf gives events: "cpu-clock:ppp", "cycles:u",
 * "sched:sched_switch".
 */
#ifndef PROF_FORMAT_EVNAME_H
#define PROF_FORMAT_EVNAME_H

#include "reader.h"

#include <stddef.h>

/*
 * Writes the name perf shows for evsel into buf: the recorded name
 * (EVENT_DESC or EVENT_UPDATE) when the file has one, otherwise the name
 * perf derives from the attr (type, config and exclude_* modifiers).
 * Returns buf.
 */
const char *pd_evsel_name(const struct pd_file *f, const struct pd_evsel *evsel,
			  char *buf, size_t size);

#endif
