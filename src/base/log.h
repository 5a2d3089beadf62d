/*
 * log.h — logging, assertions and fatal errors.
 *
 * Design: a bug is not an error (STYLE.md): SL_ASSERT aborts with file and
 * line, in every build. sl_panic is for conditions the process cannot survive
 * (out of memory). Logging goes to stderr with a level filter set once at start
 * (sl_log_level); the server logs little on the hot path.
 * Threads: logging is safe from any thread (one fprintf per line).
 */
#ifndef SL_BASE_LOG_H
#define SL_BASE_LOG_H

typedef enum { SL_LOG_DEBUG, SL_LOG_INFO, SL_LOG_WARN, SL_LOG_ERROR, SL_LOG_OFF } sl_log_lvl;

extern sl_log_lvl sl_log_level;

void sl_log(sl_log_lvl lvl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
_Noreturn void sl_panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void sl__assert_fail(const char *expr, const char *file, int line);

#define SL_ASSERT(e) ((e) ? (void)0 : sl__assert_fail(#e, __FILE__, __LINE__))
#define SL_UNREACHABLE() sl__assert_fail("unreachable", __FILE__, __LINE__)
#define SL_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#define sl_debug(...) (sl_log_level <= SL_LOG_DEBUG ? sl_log(SL_LOG_DEBUG, __VA_ARGS__) : (void)0)
#define sl_info(...) sl_log(SL_LOG_INFO, __VA_ARGS__)
#define sl_warn(...) sl_log(SL_LOG_WARN, __VA_ARGS__)
#define sl_error(...) sl_log(SL_LOG_ERROR, __VA_ARGS__)

#endif
