//===- CommandEvaluator.h - A user's command per config ---------*- C++ -*-===//
//
// Evaluates configs of a user-defined space (BaCO's and Kernel Tuner's use:
// a benchmark the user wrote) by running a command built from a template,
// e.g. `./bench --bx {block_size_x} --by {block_size_y}`, in a child process
// with a timeout, and reading the objective from what it prints: the last
// number of its standard output, or a field of the last JSON object it
// printed. An optional compile template runs first. Exit status, signals,
// timeouts and unreadable output become failure classes (compile_failed,
// crashed, timeout, invalid_output), never errors of the run.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_TUNING_COMMANDEVALUATOR_H
#define TUNER_TUNING_COMMANDEVALUATOR_H

#include "tuner/Search/Strategy.h"
#include "tuner/Tuning/TuningSession.h"

#include <memory>
#include <optional>

namespace tuner {

/// A command line with `{parameter}` placeholders (`{{` and `}}` stand for
/// literal braces), checked against a space. `{config}` (where the space has
/// no parameter of that name) stands for the path of a JSON file holding the
/// whole config ({"name": value, ...}, as `--tuner-apply`'s `config` reads
/// it), written before each command.
class CommandTemplate {
public:
  /// Parses `text`; fails, naming the column, on an unclosed or stray brace,
  /// an empty placeholder, or a name that is not a parameter of `space`.
  static llvm::Expected<CommandTemplate> parse(llvm::StringRef text,
                                               const Space &space);

  /// The command for `config`: integers and reals as numbers, booleans as 1
  /// or 0, permutations as comma-separated elements, strings as they are;
  /// a value with characters a shell would interpret is single-quoted.
  std::string expand(const Config &config,
                     llvm::StringRef configPath = "") const;
  const std::string &getText() const { return text; }
  /// Whether the template holds `{config}`.
  bool needsConfigFile() const;

  /// The slot of `{config}`.
  static constexpr size_t kConfigFileSlot = ~size_t(0);

private:
  std::string text;
  /// Literal text and parameter indices, alternating: pieces[i] is
  /// followed by parameter slots[i] (the last piece by none).
  std::vector<std::string> pieces;
  std::vector<size_t> slots;
};

struct CommandOptions {
  /// Run once per config (required) and, when set, compile before it.
  std::string run, compile;
  /// Seconds the run (and the compile step) may take.
  double timeoutSeconds = 60;
  /// Memory (address space) each command may use, in MiB (0: no limit);
  /// a command that runs out of it fails like any other.
  unsigned memoryLimitMB = 8192;
  /// The JSON field holding the objective; empty: the last number printed.
  std::string objectiveField;
  Objective objective = Objective::Minimize;
  /// A folder for the commands' outputs (created if missing).
  std::string workDir;
};

class CommandEvaluator : public Evaluator {
public:
  /// Checks the templates against `space` and the options.
  static llvm::Expected<std::unique_ptr<CommandEvaluator>>
  create(const Space &space, CommandOptions options);

  /// Runs the commands of each config, one config after the other (timings
  /// of concurrent runs disturb each other).
  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override;

  /// The objective in `output`: the last number, or `field` of the last
  /// line that is a JSON object holding it as a number; nullopt when
  /// there is none.
  static std::optional<double> readObjective(llvm::StringRef output,
                                             llvm::StringRef field);

private:
  CommandEvaluator(const Space &space, CommandOptions options,
                   CommandTemplate run, std::optional<CommandTemplate> compile)
      : space(space), options(std::move(options)), run(std::move(run)),
        compile(std::move(compile)) {}
  Observation evaluateOne(const Config &config);

  /// The space of the configs (must outlive the evaluator): `{config}`
  /// files name their parameters.
  const Space &space;
  CommandOptions options;
  CommandTemplate run;
  std::optional<CommandTemplate> compile;
};

} // namespace tuner

#endif // TUNER_TUNING_COMMANDEVALUATOR_H
