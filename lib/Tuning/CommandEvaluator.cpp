//===- CommandEvaluator.cpp - A user's command per config -----------------===//

#include "tuner/Tuning/CommandEvaluator.h"
#include "tuner/Measure/Process.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstdlib>

using namespace tuner;

//===----------------------------------------------------------------------===//
// Templates
//===----------------------------------------------------------------------===//

llvm::Expected<CommandTemplate>
CommandTemplate::parse(llvm::StringRef text, const Space &space) {
  CommandTemplate result;
  result.text = text.str();
  auto fail = [&](size_t column, const llvm::Twine &what) {
    return llvm::createStringError("command template '" + text +
                                   "', column " + llvm::Twine(column + 1) +
                                   ": " + what);
  };
  std::string piece;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '}') {
      if (i + 1 < text.size() && text[i + 1] == '}') {
        piece += '}';
        ++i;
        continue;
      }
      return fail(i, "'}' without '{' (write '}}' for a literal brace)");
    }
    if (c != '{') {
      piece += c;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {
      piece += '{';
      ++i;
      continue;
    }
    size_t close = text.find('}', i);
    if (close == llvm::StringRef::npos)
      return fail(i, "'{' is never closed");
    llvm::StringRef name = text.slice(i + 1, close).trim();
    if (name.empty())
      return fail(i, "empty placeholder '{}'");
    std::optional<size_t> index = space.indexOf(name);
    if (!index && name != "config")
      return fail(i, "'" + name +
                         "' is not a parameter of the space (nor 'config', "
                         "the config's JSON file)");
    result.pieces.push_back(std::move(piece));
    piece.clear();
    result.slots.push_back(index ? *index : kConfigFileSlot);
    i = close;
  }
  result.pieces.push_back(std::move(piece));
  return result;
}

/// `value` as a command-line word.
static std::string word(const ParamValue &value) {
  std::string text;
  if (value.isBoolean())
    text = value.getBoolean() ? "1" : "0";
  else if (value.isString())
    text = value.getString();
  else if (value.isPermutation())
    text = llvm::join(llvm::map_range(value.getPermutation(),
                                      [](int64_t v) { return std::to_string(v); }),
                      ",");
  else
    text = value.str();
  bool plain = !text.empty() && llvm::all_of(text, [](char c) {
    return llvm::isAlnum(c) || llvm::StringRef("._,+-=/:@%").contains(c);
  });
  if (plain)
    return text;
  std::string quoted = "'";
  for (char c : text)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string CommandTemplate::expand(const Config &config,
                                    llvm::StringRef configPath) const {
  std::string result;
  for (size_t i = 0; i < slots.size(); ++i)
    result += pieces[i] + (slots[i] == kConfigFileSlot
                               ? word(ParamValue::string(configPath.str()))
                               : word(config[slots[i]]));
  return result + pieces.back();
}

bool CommandTemplate::needsConfigFile() const {
  return llvm::is_contained(slots, kConfigFileSlot);
}

//===----------------------------------------------------------------------===//
// Reading the objective
//===----------------------------------------------------------------------===//

/// The last number in `text` (an integer or a decimal with an optional
/// exponent, as strtod reads it, not part of a word).
static std::optional<double> lastNumber(llvm::StringRef text) {
  std::optional<double> last;
  const char *begin = text.data(), *end = text.data() + text.size();
  for (const char *p = begin; p < end;) {
    bool starts = (llvm::isDigit(*p) ||
                   ((*p == '-' || *p == '+' || *p == '.') && p + 1 < end &&
                    (llvm::isDigit(p[1]) || p[1] == '.'))) &&
                  (p == begin || !(llvm::isAlnum(p[-1]) || p[-1] == '_' ||
                                   p[-1] == '.'));
    if (!starts) {
      ++p;
      continue;
    }
    std::string token(p, std::find_if(p, end, [](char c) {
                        return llvm::isSpace(c) || c == ',' || c == ';' ||
                               c == ')' || c == ']' || c == '}' || c == '"';
                      }));
    char *stop = nullptr;
    double value = std::strtod(token.c_str(), &stop);
    size_t used = stop - token.c_str();
    if (used == 0) {
      ++p;
      continue;
    }
    // "3.5ms" or "1e-3s" still reads as a number followed by a unit; a word
    // such as "v2" was excluded above.
    if (std::isfinite(value))
      last = value;
    p += used;
  }
  return last;
}

std::optional<double> CommandEvaluator::readObjective(llvm::StringRef output,
                                                      llvm::StringRef field) {
  if (field.empty())
    return lastNumber(output);
  llvm::SmallVector<llvm::StringRef> lines;
  output.split(lines, '\n');
  for (llvm::StringRef line : llvm::reverse(lines)) {
    line = line.trim();
    if (!line.starts_with("{"))
      continue;
    llvm::Expected<llvm::json::Value> json = llvm::json::parse(line);
    if (!json) {
      llvm::consumeError(json.takeError());
      continue;
    }
    if (const llvm::json::Object *object = json->getAsObject())
      if (std::optional<double> value = object->getNumber(field))
        if (std::isfinite(*value))
          return *value;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// The evaluator
//===----------------------------------------------------------------------===//

llvm::Expected<std::unique_ptr<CommandEvaluator>>
CommandEvaluator::create(const Space &space, CommandOptions options) {
  if (llvm::StringRef(options.run).trim().empty())
    return llvm::createStringError("the command template is empty");
  if (!(options.timeoutSeconds > 0))
    return llvm::createStringError("the command timeout must be positive");
  llvm::Expected<CommandTemplate> run =
      CommandTemplate::parse(options.run, space);
  if (!run)
    return run.takeError();
  std::optional<CommandTemplate> compile;
  if (!options.compile.empty()) {
    llvm::Expected<CommandTemplate> parsed =
        CommandTemplate::parse(options.compile, space);
    if (!parsed)
      return parsed.takeError();
    compile = std::move(*parsed);
  }
  if (options.workDir.empty()) {
    llvm::SmallString<128> dir;
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("tuner-command", dir))
      return llvm::createStringError("cannot create a folder for the "
                                     "commands' output: " +
                                     ec.message());
    options.workDir = dir.str().str();
  } else if (std::error_code ec =
                 llvm::sys::fs::create_directories(options.workDir)) {
    return llvm::createStringError("cannot create '" + options.workDir +
                                   "': " + ec.message());
  }
  return std::unique_ptr<CommandEvaluator>(new CommandEvaluator(
      space, std::move(options), std::move(*run), std::move(compile)));
}


Observation CommandEvaluator::evaluateOne(const Config &config) {
  Observation observation;
  observation.config = config;
  std::string out = (llvm::Twine(options.workDir) + "/stdout.txt").str();
  std::string err = (llvm::Twine(options.workDir) + "/stderr.txt").str();
  // One shell per command, so that templates may use pipes and redirects.
  auto shell = [&](const std::string &command) {
    llvm::StringRef args[] = {"/bin/sh", "-c", command};
    return runProcess("/bin/sh", args, out, err, options.timeoutSeconds,
                      options.memoryLimitMB);
  };
  auto failed = [&](const ProcessResult &result, Status onExit,
                    llvm::StringRef step, const std::string &command) {
    std::string why;
    switch (result.kind) {
    case ProcessResult::Kind::TimedOut:
      observation.status = Status::Timeout;
      why = "ran past " + llvm::formatv("{0}", options.timeoutSeconds).str() +
            " s";
      break;
    case ProcessResult::Kind::Signaled:
    case ProcessResult::Kind::Cancelled: // never asked for here
      observation.status = Status::Crashed;
      why = "killed: " + result.message;
      break;
    case ProcessResult::Kind::FailedToStart:
      observation.status = onExit;
      why = "could not start: " + result.message;
      break;
    case ProcessResult::Kind::Exited:
      observation.status = onExit;
      why = "exited with status " + std::to_string(result.exitCode);
      break;
    }
    std::string errors = outputTail(readOutput(err), 2000);
    observation.message = (step + " `" + command + "` " + why +
                           (errors.empty() ? "" : ": " + errors))
                              .str();
  };

  // `{config}`: the whole config as JSON, written afresh for each config.
  std::string configPath;
  if (run.needsConfigFile() || (compile && compile->needsConfigFile())) {
    configPath = (llvm::Twine(options.workDir) + "/config.json").str();
    if (llvm::Error error =
            writeJSONFile(configPath, config.toJSON(space))) {
      observation.status = Status::CompileFailed;
      observation.message = "cannot write the config file '" + configPath +
                            "': " + llvm::toString(std::move(error));
      return observation;
    }
  }
  if (compile) {
    std::string command = compile->expand(config, configPath);
    ProcessResult built = shell(command);
    observation.costSeconds += built.wallSeconds;
    if (!built.succeeded()) {
      failed(built, Status::CompileFailed, "compile command", command);
      return observation;
    }
  }
  std::string command = run.expand(config, configPath);
  ProcessResult ran = shell(command);
  observation.costSeconds += ran.wallSeconds;
  if (!ran.succeeded()) {
    failed(ran, Status::Crashed, "command", command);
    return observation;
  }
  std::string output = readOutput(out);
  std::optional<double> objective =
      readObjective(output, options.objectiveField);
  if (!objective) {
    observation.status = Status::InvalidOutput;
    std::string shown = outputTail(output, 500);
    observation.message =
        "command `" + command + "` printed no " +
        (options.objectiveField.empty()
             ? std::string("number")
             : "JSON object with a numeric field '" + options.objectiveField +
                   "'") +
        (shown.empty() ? " (its output is empty)" : ": " + shown);
    return observation;
  }
  observation.status = Status::Ok;
  observation.objective = *objective;
  observation.value = valueOfObjective(options.objective, *objective);
  // The command's own wall time, kept as the record's time.
  observation.minSeconds = observation.medianSeconds =
      observation.maxSeconds = std::max(ran.wallSeconds, 1e-9);
  observation.repetitions = 1;
  return observation;
}

std::vector<Observation>
CommandEvaluator::evaluate(llvm::ArrayRef<Config> configs) {
  std::vector<Observation> observations;
  for (const Config &config : configs)
    observations.push_back(evaluateOne(config));
  return observations;
}
