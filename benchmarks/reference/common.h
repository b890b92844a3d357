/* common.h - What every C reference (and the MLIR driver) shares.
 *
 * Deterministic inputs: buffer b (the b-th argument of the MLIR function,
 * then its results, in order) holds bench_value(b, i) at flat index i, a
 * float in [-1, 1) with 24 significant bits, so the C reference and the
 * compiled MLIR kernel see bit-identical inputs.
 *
 * The timing protocol of DESIGN.md: one warm-up call, then the number of
 * calls per repetition is grown until a repetition lasts --min-time seconds
 * (default 0.02), then --reps (default 5, at least 5) repetitions are timed;
 * the median, min and max seconds per call are printed as one JSON line.
 *
 * `--dump FILE` instead calls the kernel once on fresh inputs and writes its
 * outputs (raw little-endian f32, in order) to FILE, for comparison.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline float bench_value(unsigned buffer, uint64_t index) {
  uint64_t x = (index + 1) * 0x9E3779B97F4A7C15ull ^
               (uint64_t)(buffer + 1) * 0xD1B54A32D192ED03ull;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 32;
  /* 24 random bits, centred: a multiple of 2^-23 in [-1, 1). */
  return (float)((int32_t)(x >> 40) - (1 << 23)) * (1.0f / (1 << 23));
}

/* A 64-byte aligned buffer of n floats filled for buffer index `buffer`;
 * exits with a message if the allocation fails. */
static float *bench_buffer(size_t n, unsigned buffer) {
  size_t bytes = (n * sizeof(float) + 63) / 64 * 64;
  float *data = (float *)aligned_alloc(64, bytes ? bytes : 64);
  if (!data) {
    fprintf(stderr, "cannot allocate %zu bytes for buffer %u\n", bytes, buffer);
    exit(2);
  }
  for (size_t i = 0; i < n; ++i)
    data[i] = bench_value(buffer, i);
  return data;
}

/* A kernel output: its contents after a call are compared. */
struct bench_output {
  const float *data;
  size_t count;
};

static double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double bench_time_calls(void (*call)(void *), void *context,
                               uint64_t calls) {
  double start = bench_now();
  for (uint64_t i = 0; i < calls; ++i)
    call(context);
  return bench_now() - start;
}

static int bench_compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void bench_usage(const char *program) {
  fprintf(stderr,
          "usage: %s [--reps N (>= 5)] [--min-time SECONDS] [--dump FILE]\n",
          program);
  exit(2);
}

/* Parsed command line of a reference or of the MLIR driver. */
struct bench_options {
  unsigned reps;
  double min_time;
  const char *dump;
};

/* Consumes argv[*i] (and its value) if it is a protocol option; returns 0 if
 * it is not one. Exits with the usage on a bad value. */
static int bench_parse_option(int argc, char **argv, int *i,
                              struct bench_options *options) {
  const char *arg = argv[*i];
  if (strcmp(arg, "--reps") && strcmp(arg, "--min-time") &&
      strcmp(arg, "--dump"))
    return 0;
  if (*i + 1 >= argc)
    bench_usage(argv[0]);
  const char *value = argv[++*i];
  char *end = NULL;
  if (!strcmp(arg, "--reps")) {
    long reps = strtol(value, &end, 10);
    if (*end || reps < 5 || reps > 1000)
      bench_usage(argv[0]);
    options->reps = (unsigned)reps;
  } else if (!strcmp(arg, "--min-time")) {
    double seconds = strtod(value, &end);
    if (*end || !(seconds > 0) || seconds > 60)
      bench_usage(argv[0]);
    options->min_time = seconds;
  } else {
    options->dump = value;
  }
  return 1;
}

/* Writes the outputs to options->dump (after one call) or times `call`, and
 * prints one JSON line. Returns the process exit status. */
static int bench_execute(const char *kernel,
                         const struct bench_options *options,
                         void (*call)(void *), void *context,
                         const struct bench_output *outputs,
                         unsigned num_outputs) {
  if (options->dump) {
    call(context);
    FILE *file = fopen(options->dump, "wb");
    if (!file) {
      fprintf(stderr, "%s: cannot write '%s'\n", kernel, options->dump);
      return 2;
    }
    size_t total = 0;
    for (unsigned o = 0; o < num_outputs; ++o) {
      if (fwrite(outputs[o].data, sizeof(float), outputs[o].count, file) !=
          outputs[o].count) {
        fprintf(stderr, "%s: short write to '%s'\n", kernel, options->dump);
        fclose(file);
        return 2;
      }
      total += outputs[o].count;
    }
    if (fclose(file)) {
      fprintf(stderr, "%s: cannot write '%s'\n", kernel, options->dump);
      return 2;
    }
    printf("{\"kernel\": \"%s\", \"dumped_floats\": %zu}\n", kernel, total);
    return 0;
  }

  /* Warm-up and calibration: grow the batch until it lasts min_time. */
  uint64_t calls = 1;
  for (;;) {
    double seconds = bench_time_calls(call, context, calls);
    if (seconds >= options->min_time)
      break;
    uint64_t estimate =
        seconds > 0 ? (uint64_t)ceil(calls * 1.2 * options->min_time / seconds)
                    : calls * 16;
    uint64_t next = calls * 2 > estimate ? calls * 2 : estimate;
    calls = next < calls * 1000 ? next : calls * 1000;
  }
  double per_call[1000];
  for (unsigned r = 0; r < options->reps; ++r)
    per_call[r] = bench_time_calls(call, context, calls) / (double)calls;
  qsort(per_call, options->reps, sizeof(double), bench_compare_doubles);
  unsigned n = options->reps;
  double median =
      n % 2 ? per_call[n / 2] : 0.5 * (per_call[n / 2 - 1] + per_call[n / 2]);
  printf("{\"kernel\": \"%s\", \"median_s\": %.9g, \"min_s\": %.9g, "
         "\"max_s\": %.9g, \"repetitions\": %u, \"calls_per_repetition\": "
         "%llu}\n",
         kernel, median, per_call[0], per_call[n - 1], n,
         (unsigned long long)calls);
  return 0;
}

/* main() of a reference: parses the protocol options, then runs. */
__attribute__((unused)) static int
bench_main(int argc, char **argv, const char *kernel, void (*call)(void *),
           void *context, const struct bench_output *outputs,
           unsigned num_outputs) {
  struct bench_options options = {5, 0.02, NULL};
  for (int i = 1; i < argc; ++i)
    if (!bench_parse_option(argc, argv, &i, &options))
      bench_usage(argv[0]);
  return bench_execute(kernel, &options, call, context, outputs, num_outputs);
}

#endif /* BENCH_COMMON_H */
