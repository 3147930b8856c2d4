/*
 * cmds.h - the subcommands.  Each lives in src/cmd/<name>.c and exports
 * cmd_<name>(argc, argv), where argv[0] is the command name.  The return
 * value is the process exit status.
 */
#ifndef PROF_CMD_CMDS_H
#define PROF_CMD_CMDS_H

int cmd_flame(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_diff(int argc, char **argv);

#endif
