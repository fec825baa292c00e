/* fentry_fixture.h: how many ftrace call sites fentry_fixture.c compiles to. */
#ifndef FSM_FENTRY_FIXTURE_H
#define FSM_FENTRY_FIXTURE_H
#define FIXTURE_SITES 5
#endif
