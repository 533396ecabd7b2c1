"""The C test harness every grader includes (``#include "tuner_test.h"``), written next to it.

It is C source kept in a Python module so it ships with the package like any code (no package data)
and its text is part of the grader id. A grader lists its tests::

    #include "tuner_test.h"
    #include "strutil.h"
    TEST(trims_both_ends) { CHECK_STR_EQ(trimmed("  a "), "a"); }
    RUN_TESTS(CASE(trims_both_ends))

Each test runs in a child process (a crash, an abort, a sanitizer report or a hang ends that test
only, after ``TUNER_TEST_SECONDS``); the parent writes one line per test to a duplicate of the
stdout it was started with, tagged with the nonce the host sends on stdin, read before any test
runs. The host trusts those lines only: not the exit code, not other output. A child forgets the
nonce (its copy and the stack the parent wrote records from are zeroed) before the test starts, so
the answer's code has no copy of it to print.
"""

from __future__ import annotations

__all__ = ["HEADER_NAME", "HEADER", "TEST_SECONDS", "TEST_MEMORY_MB"]

HEADER_NAME = "tuner_test.h"
TEST_SECONDS = 10
# Memory one test may allocate beyond what the program had mapped when it forked (RLIMIT_DATA;
# an address-space limit would break AddressSanitizer, whose shadow maps terabytes up front).
TEST_MEMORY_MB = 512

HEADER = r"""/* tuner C test harness: see tuner/suites/c/harness.py. Generated; do not edit. */
#ifndef TUNER_TEST_H
#define TUNER_TEST_H
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#ifndef TUNER_TEST_SECONDS
#define TUNER_TEST_SECONDS 10
#endif
#ifndef TUNER_TEST_MEMORY_MB
#define TUNER_TEST_MEMORY_MB 512
#endif

struct tuner_case { const char *name; void (*run)(void); };

static int tuner_failed_;
static int tuner_status_fd_ = -1;

static void tuner_clean_(char *out, size_t size, const char *text) {
    size_t n = 0;
    for (; text && *text && n + 1 < size; text++)
        out[n++] = (*text >= 32 && *text < 127) ? *text : '?';
    out[n] = 0;
}

static void tuner_fail_(const char *file, int line, const char *what) {
    char buf[400], clean[360];
    tuner_failed_ = 1;
    tuner_clean_(clean, sizeof clean, what);
    int n = line > 0 ? snprintf(buf, sizeof buf, "%s:%d: %s", file, line, clean) : snprintf(buf, sizeof buf, "%s", clean);
    if (tuner_status_fd_ >= 0 && n > 0) (void)!write(tuner_status_fd_, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

#define TEST(name) static void name(void)
#define CASE(fn) { #fn, fn }
#define CHECK(cond) do { if (!(cond)) { tuner_fail_(__FILE__, __LINE__, "CHECK(" #cond ") failed"); return; } } while (0)
#define CHECK_INT_EQ(got, want) do { long long g_ = (long long)(got), w_ = (long long)(want); if (g_ != w_) { \
    char m_[200]; snprintf(m_, sizeof m_, "%s is %lld, expected %lld", #got, g_, w_); \
    tuner_fail_(__FILE__, __LINE__, m_); return; } } while (0)
#define CHECK_STR_EQ(got, want) do { const char *g_ = (got), *w_ = (want); if (!g_ || strcmp(g_, w_) != 0) { \
    char m_[300]; snprintf(m_, sizeof m_, "%s is \"%.80s\", expected \"%.80s\"", #got, g_ ? g_ : "(null)", w_); \
    tuner_fail_(__FILE__, __LINE__, m_); return; } } while (0)

static void tuner_emit_(int fd, const char *nonce, const char *status, const char *name, const char *message) {
    char line[600], clean[420];
    tuner_clean_(clean, sizeof clean, message);
    int n = snprintf(line, sizeof line, "\n%s %s %s %s\n", nonce, status, name, clean);
    for (int off = 0; n > 0 && off < n && off < (int)sizeof line;) {
        ssize_t w = write(fd, line + off, (size_t)(n - off));
        if (w <= 0) break;
        off += (int)w;
    }
}

/* Zero the stack below the caller: what earlier calls left there (records with the nonce) is gone. */
static void tuner_scrub_stack_(void) {
    volatile char area[65536];
    for (size_t i = 0; i < sizeof area; i++) area[i] = 0;
}

static void tuner_limit_memory_(void) {
    unsigned long long kb = 0;
    char line[256];
    FILE *status = fopen("/proc/self/status", "r");
    if (status == NULL) return;
    while (fgets(line, sizeof line, status))
        if (strncmp(line, "VmData:", 7) == 0) kb = strtoull(line + 7, NULL, 10);
    fclose(status);
    struct rlimit limit;
    limit.rlim_cur = limit.rlim_max = (rlim_t)((kb << 10) + ((unsigned long long)TUNER_TEST_MEMORY_MB << 20));
    if (kb > 0) setrlimit(RLIMIT_DATA, &limit);
}

static int tuner_main_(const struct tuner_case *cases, int count) {
    char nonce[80] = "";
    size_t got_nonce = 0;
    /* read(2), not stdio: no buffer on the heap keeps a copy. */
    while (got_nonce + 1 < sizeof nonce && read(0, nonce + got_nonce, 1) == 1 && nonce[got_nonce] != '\n') got_nonce++;
    nonce[got_nonce] = 0;
    if (got_nonce == 0) return 2;
    int out = dup(1);
    if (out < 0) return 2;
    tuner_emit_(out, nonce, "started", "-", "");
    for (int i = 0; i < count; i++) {
        int pipefd[2];
        char message[400] = "";
        if (pipe(pipefd) != 0) return 2;
        fflush(NULL);
        pid_t child = fork();
        if (child < 0) return 2;
        if (child == 0) {
            close(pipefd[0]);
            close(out);
            memset(nonce, 0, sizeof nonce);
            tuner_scrub_stack_();
            tuner_limit_memory_();
            tuner_status_fd_ = pipefd[1];
            alarm(TUNER_TEST_SECONDS);
            cases[i].run();
#if defined(__SANITIZE_ADDRESS__)
            if (!tuner_failed_ && __lsan_do_recoverable_leak_check())
                tuner_fail_("", 0, "leaks memory (LeakSanitizer found blocks never freed)");
#endif
            if (!tuner_failed_) (void)!write(pipefd[1], "ok", 2);
            fflush(NULL);
            _exit(0);
        }
        close(pipefd[1]);
        size_t got = 0;
        ssize_t r;
        while (got + 1 < sizeof message && (r = read(pipefd[0], message + got, sizeof message - 1 - got)) > 0) got += (size_t)r;
        message[got] = 0;
        close(pipefd[0]);
        int status = 0;
        while (waitpid(child, &status, 0) < 0) {}
        if (WIFSIGNALED(status)) {
            char why[120];
            int sig = WTERMSIG(status);
            snprintf(why, sizeof why, sig == SIGALRM ? "timed out after %d s (an infinite loop?)" : "crashed: signal %d (%s)",
                     sig == SIGALRM ? TUNER_TEST_SECONDS : sig, strsignal(sig));
            tuner_emit_(out, nonce, "fail", cases[i].name, why);
        } else if (strcmp(message, "ok") == 0 && WEXITSTATUS(status) == 0) {
            tuner_emit_(out, nonce, "pass", cases[i].name, "");
        } else if (message[0]) {
            tuner_emit_(out, nonce, "fail", cases[i].name, message);
        } else {
            char why[120];
            snprintf(why, sizeof why, "ended without a verdict (exit %d): the code exits, or a sanitizer stopped it (below)",
                     WEXITSTATUS(status));
            tuner_emit_(out, nonce, "fail", cases[i].name, why);
        }
    }
    char total[32];
    snprintf(total, sizeof total, "%d", count);
    tuner_emit_(out, nonce, "finished", "-", total);
    return 0;
}

#define RUN_TESTS(...) int main(void) { static const struct tuner_case cases_[] = { __VA_ARGS__ }; \
    return tuner_main_(cases_, (int)(sizeof cases_ / sizeof cases_[0])); }

#endif
"""
