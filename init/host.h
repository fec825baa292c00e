/* host.h: the subcommands of the host CLI out/fsmatrix. Each is main-shaped: argv[0] is the
 * subcommand's name; it returns the exit status (0 ok, 1 failure, 2 usage). To add one, write
 * init/host_<name>.c, declare it here and add a row to the table in host_main.c. */
#ifndef FSM_HOST_H
#define FSM_HOST_H

int host_cmd_disks(int argc, char **argv);
int host_cmd_check(int argc, char **argv);
int host_cmd_report(int argc, char **argv);
int host_cmd_compare(int argc, char **argv);
int host_cmd_html(int argc, char **argv);
int host_cmd_workload(int argc, char **argv);

#endif
