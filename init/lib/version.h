/* lib/version.h: the version /init and out/fsmatrix report. The Makefile passes the host CLI
 * `git describe` of the tree it is built from; a build outside git gets this one. */
#ifndef FSM_VERSION
#define FSM_VERSION "0.1"
#endif
