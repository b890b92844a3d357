# Settings of a sanitized build (-DTUNER_SANITIZE=ON, scripts/test-sanitized.sh)
# shared by the lit and unit test suites: any ASan, UBSan or LeakSanitizer
# report fails the test, and leaks that LLVM/MLIR make by design are
# suppressed by scripts/sanitizers/lsan.supp.
import os


def configure(config):
    if not config.tuner_sanitized:
        return
    config.available_features.add("sanitized")
    suppressions = os.path.join(config.tuner_sanitizer_dir, "lsan.supp")
    # abort_on_error=1: a report ends the process with SIGABRT, which fails
    # the test even under `not` (it takes a crash for a failure, unlike an
    # exit code). handle_segv=0 (and friends): a crash is still a failed test
    # (the signal), and a child's crash is still classified by its signal.
    config.environment["ASAN_OPTIONS"] = ":".join([
        "halt_on_error=1", "detect_leaks=1", "abort_on_error=1",
        "handle_segv=0", "handle_sigbus=0", "handle_sigfpe=0",
        "handle_sigill=0", "detect_stack_use_after_return=0",
        "strict_string_checks=1", "check_initialization_order=1"])
    config.environment["UBSAN_OPTIONS"] = ":".join([
        "halt_on_error=1", "abort_on_error=1", "print_stacktrace=1"])
    config.environment["LSAN_OPTIONS"] = "suppressions=" + suppressions
