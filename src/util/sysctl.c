/*
 * sysctl.c - /proc/sys integers (sysctl.h).
 */
#include "sysctl.h"

#include <stdio.h>

int sysctl_int(const char *name, int fallback, int negative_ok)
{
	char path[256];
	FILE *fp;
	int v;

	snprintf(path, sizeof(path), "/proc/sys/%s", name);
	fp = fopen(path, "re");
	if (!fp)
		return fallback;
	if (fscanf(fp, "%d", &v) != 1 || (v < 0 && !negative_ok))
		v = fallback;
	fclose(fp);
	return v;
}
