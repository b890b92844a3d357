//===- Dataset.cpp - Measured schedules of programs -----------------------===//
//
// JSON-lines files of program and sample records: reading a folder (all
// shards) or one shard, and appending records one line at a time.
//
//===----------------------------------------------------------------------===//

#include "tuner/CostModel/Dataset.h"

#include "tuner/Support/Measurement.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace tuner;

std::string tuner::programsFileName(llvm::StringRef suffix) {
  return ("programs" + suffix + ".jsonl").str();
}

std::string tuner::samplesFileName(llvm::StringRef suffix) {
  return ("samples" + suffix + ".jsonl").str();
}

std::map<std::string, size_t> Dataset::programIndex() const {
  std::map<std::string, size_t> index;
  for (auto [i, program] : llvm::enumerate(programs))
    index.emplace(program.id, i);
  return index;
}

llvm::Error Dataset::append(Dataset other, llvm::StringRef origin) {
  std::map<std::string, size_t> index = programIndex();
  for (const ProgramRecord &program : other.programs)
    if (index.count(program.id))
      return llvm::createStringError("program '" + program.id + "' of " +
                                     origin +
                                     " was already read from another input");
  for (ProgramRecord &program : other.programs)
    programs.push_back(std::move(program));
  for (SampleRecord &sample : other.samples)
    samples.push_back(std::move(sample));
  for (std::string &warning : other.warnings)
    warnings.push_back(std::move(warning));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// JSON forms
//===----------------------------------------------------------------------===//

namespace {
/// Typed access to the fields of one record, with errors naming the field.
class FieldReader {
public:
  FieldReader(const llvm::json::Object &object, llvm::StringRef what)
      : object(object), what(what) {}

  llvm::Expected<const llvm::json::Value *> get(llvm::StringRef key) const {
    const llvm::json::Value *value = object.get(key);
    if (!value)
      return llvm::createStringError(what + ": missing field '" + key + "'");
    return value;
  }

  llvm::Error string(llvm::StringRef key, std::string &out) const {
    llvm::Expected<const llvm::json::Value *> value = get(key);
    if (!value)
      return value.takeError();
    std::optional<llvm::StringRef> text = (*value)->getAsString();
    if (!text)
      return mistyped(key, "a string");
    out = text->str();
    return llvm::Error::success();
  }

  /// A finite number that is not negative.
  llvm::Error seconds(llvm::StringRef key, double &out) const {
    llvm::Expected<const llvm::json::Value *> value = get(key);
    if (!value)
      return value.takeError();
    std::optional<double> number = (*value)->getAsNumber();
    if (!number || !(*number >= 0) || *number > 1e300)
      return mistyped(key, "a number >= 0");
    out = *number;
    return llvm::Error::success();
  }

  /// Prefixes an error of reading the value of `key`.
  llvm::Error inField(llvm::StringRef key, llvm::Error error) const {
    return llvm::createStringError(what + ": field '" + key +
                                   "': " + llvm::toString(std::move(error)));
  }

  llvm::Error mistyped(llvm::StringRef key, llvm::StringRef expected) const {
    return llvm::createStringError(what + ": field '" + key + "' must be " +
                                   expected);
  }

private:
  const llvm::json::Object &object;
  std::string what;
};
} // namespace

llvm::json::Value tuner::toJSON(const ProgramRecord &program) {
  llvm::json::Object object{{"id", program.id},
                            {"generator", program.generator},
                            {"target", program.target},
                            {"baseline_seconds", program.baselineSeconds},
                            {"mlir", program.mlir},
                            {"tree", program.tree.toJSON()},
                            {"space", program.space.toJSON()}};
  if (program.baselineForeignLoad >= 0)
    object["baseline_foreign_load"] = program.baselineForeignLoad;
  return object;
}

llvm::Expected<ProgramRecord>
tuner::programFromJSON(const llvm::json::Value &json) {
  const llvm::json::Object *object = json.getAsObject();
  if (!object)
    return llvm::createStringError("program record: expected a JSON object");
  FieldReader fields(*object, "program record");
  ProgramRecord program;
  if (llvm::Error error = fields.string("id", program.id))
    return std::move(error);
  if (program.id.empty())
    return fields.mistyped("id", "a non-empty string");
  FieldReader named(*object, "program '" + program.id + "'");
  for (auto [key, out] :
       {std::pair{"generator", &program.generator},
        std::pair{"target", &program.target}, std::pair{"mlir", &program.mlir}})
    if (llvm::Error error = named.string(key, *out))
      return std::move(error);
  if (llvm::Error error =
          named.seconds("baseline_seconds", program.baselineSeconds))
    return std::move(error);
  if (object->get("baseline_foreign_load"))
    if (llvm::Error error = named.seconds("baseline_foreign_load",
                                          program.baselineForeignLoad))
      return std::move(error);

  llvm::Expected<const llvm::json::Value *> treeJSON = named.get("tree");
  if (!treeJSON)
    return treeJSON.takeError();
  llvm::Expected<ProgramTree> tree = ProgramTree::fromJSON(**treeJSON);
  if (!tree)
    return named.inField("tree", tree.takeError());
  program.tree = std::move(*tree);

  llvm::Expected<const llvm::json::Value *> spaceJSON = named.get("space");
  if (!spaceJSON)
    return spaceJSON.takeError();
  llvm::Expected<Space> space = Space::fromJSON(**spaceJSON);
  if (!space)
    return named.inField("space", space.takeError());
  program.space = std::move(*space);
  return program;
}

llvm::json::Value tuner::toJSON(const SampleRecord &sample,
                                const Space &space) {
  llvm::json::Object object{{"program", sample.programId},
                            {"config", sample.config.toJSON(space)},
                            {"status", statusName(sample.status)},
                            {"speedup", sample.speedup},
                            {"median_seconds", sample.medianSeconds},
                            {"message", sample.message}};
  if (sample.foreignLoad >= 0)
    object["foreign_load"] = sample.foreignLoad;
  if (sample.generationSeconds >= 0)
    object["generation_seconds"] = sample.generationSeconds;
  return object;
}

llvm::Expected<SampleRecord>
tuner::sampleFromJSON(const llvm::json::Value &json, const Space &space) {
  const llvm::json::Object *object = json.getAsObject();
  if (!object)
    return llvm::createStringError("sample record: expected a JSON object");
  FieldReader fields(*object, "sample record");
  SampleRecord sample;
  if (llvm::Error error = fields.string("program", sample.programId))
    return std::move(error);
  FieldReader named(*object, "sample of program '" + sample.programId + "'");
  std::string status;
  if (llvm::Error error = named.string("status", status))
    return std::move(error);
  std::optional<Status> parsed = parseStatus(status);
  if (!parsed)
    return named.mistyped("status", "one of " + statusNames());
  sample.status = *parsed;
  if (llvm::Error error = named.seconds("speedup", sample.speedup))
    return std::move(error);
  if (llvm::Error error = named.seconds("median_seconds", sample.medianSeconds))
    return std::move(error);
  if (object->get("foreign_load"))
    if (llvm::Error error = named.seconds("foreign_load", sample.foreignLoad))
      return std::move(error);
  if (object->get("generation_seconds"))
    if (llvm::Error error =
            named.seconds("generation_seconds", sample.generationSeconds))
      return std::move(error);
  if (sample.status == Status::Ok &&
      (sample.speedup <= 0 || sample.medianSeconds <= 0))
    return llvm::createStringError(
        "sample of program '" + sample.programId +
        "': status \"ok\" needs a positive speedup and median_seconds");
  if (object->get("message"))
    if (llvm::Error error = named.string("message", sample.message))
      return std::move(error);

  llvm::Expected<const llvm::json::Value *> configJSON = named.get("config");
  if (!configJSON)
    return configJSON.takeError();
  llvm::Expected<Config> config = Config::fromJSON(space, **configJSON);
  if (!config)
    return named.inField("config", config.takeError());
  sample.config = std::move(*config);
  return sample;
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

/// Calls `handle` on every record of the JSON-lines file `path`; an error of
/// `handle` or a malformed line is returned as "path:line: message". Blank
/// lines are skipped; so is a last line that is not JSON and lacks its
/// newline (what a killed writer leaves), with a warning.
static llvm::Error forEachRecord(
    llvm::StringRef path, std::vector<std::string> &warnings,
    llvm::function_ref<llvm::Error(const llvm::json::Value &)> handle) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError("cannot read '" + path +
                                   "': " + buffer.getError().message());
  llvm::StringRef text = (*buffer)->getBuffer();
  bool complete = text.empty() || text.back() == '\n';
  unsigned lineNumber = 0;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    ++lineNumber;
    if (line.trim().empty())
      continue;
    auto where = [&] { return llvm::formatv("{0}:{1}", path, lineNumber); };
    llvm::Expected<llvm::json::Value> json = llvm::json::parse(line);
    if (!json) {
      std::string why = llvm::toString(json.takeError());
      if (text.empty() && !complete) {
        warnings.push_back(llvm::formatv("{0}: skipped a truncated last line "
                                         "(left by a killed writer?)",
                                         where()));
        return llvm::Error::success();
      }
      return llvm::createStringError(
          llvm::formatv("{0}: not a JSON record: {1}", where(), why));
    }
    if (llvm::Error error = handle(*json))
      return llvm::createStringError(
          llvm::formatv("{0}: {1}", where(), llvm::toString(std::move(error))));
  }
  return llvm::Error::success();
}

/// Reads the given files into a dataset: all programs, then all samples.
static llvm::Expected<Dataset>
readFiles(llvm::ArrayRef<std::string> programFiles,
          llvm::ArrayRef<std::string> sampleFiles) {
  Dataset dataset;
  std::map<std::string, size_t> index;
  std::vector<std::string> origins; // The file of each program.
  for (const std::string &path : programFiles) {
    unsigned records = 0;
    llvm::Error error = forEachRecord(
        path, dataset.warnings,
        [&](const llvm::json::Value &json) -> llvm::Error {
          ++records;
          llvm::Expected<ProgramRecord> program = programFromJSON(json);
          if (!program)
            return program.takeError();
          auto [it, inserted] =
              index.emplace(program->id, dataset.programs.size());
          if (!inserted)
            return llvm::createStringError("program '" + program->id +
                                           "' was already read from " +
                                           origins[it->second]);
          origins.push_back(path);
          dataset.programs.push_back(std::move(*program));
          return llvm::Error::success();
        });
    if (error)
      return std::move(error);
  }
  for (const std::string &path : sampleFiles) {
    llvm::Error error = forEachRecord(
        path, dataset.warnings,
        [&](const llvm::json::Value &json) -> llvm::Error {
          const llvm::json::Object *object = json.getAsObject();
          std::optional<llvm::StringRef> id =
              object ? object->getString("program") : std::nullopt;
          if (!id)
            return llvm::createStringError(
                "sample record: missing field 'program' (a string)");
          auto it = index.find(id->str());
          if (it == index.end())
            return llvm::createStringError("sample of unknown program '" + *id +
                                           "'");
          llvm::Expected<SampleRecord> sample =
              sampleFromJSON(json, dataset.programs[it->second].space);
          if (!sample)
            return sample.takeError();
          dataset.samples.push_back(std::move(*sample));
          return llvm::Error::success();
        });
    if (error)
      return std::move(error);
  }
  return dataset;
}

static std::string joinPath(llvm::StringRef folder, llvm::StringRef name) {
  llvm::SmallString<256> path(folder);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

llvm::Expected<Dataset> Dataset::read(llvm::StringRef folder) {
  if (!llvm::sys::fs::is_directory(folder))
    return llvm::createStringError("cannot read dataset '" + folder +
                                   "': not a folder");
  std::vector<std::string> programFiles, sampleFiles;
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(folder, error), end;
       it != end && !error; it.increment(error)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (!name.ends_with(".jsonl"))
      continue;
    if (name.starts_with("programs"))
      programFiles.push_back(it->path());
    else if (name.starts_with("samples"))
      sampleFiles.push_back(it->path());
  }
  if (error)
    return llvm::createStringError("cannot list dataset '" + folder +
                                   "': " + error.message());
  if (programFiles.empty() && sampleFiles.empty())
    return llvm::createStringError("no programs*.jsonl or samples*.jsonl "
                                   "files in dataset '" +
                                   folder + "'");
  llvm::sort(programFiles);
  llvm::sort(sampleFiles);
  return readFiles(programFiles, sampleFiles);
}

llvm::Expected<Dataset> Dataset::readShard(llvm::StringRef folder,
                                           llvm::StringRef suffix) {
  std::vector<std::string> programFiles, sampleFiles;
  std::string programs = joinPath(folder, programsFileName(suffix));
  std::string samples = joinPath(folder, samplesFileName(suffix));
  if (llvm::sys::fs::exists(programs))
    programFiles.push_back(programs);
  if (llvm::sys::fs::exists(samples))
    sampleFiles.push_back(samples);
  return readFiles(programFiles, sampleFiles);
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

/// Makes `path` end with a whole line: a last line without its newline is
/// completed when it is a JSON record and cut off otherwise.
static llvm::Error repairLastLine(const std::string &path) {
  if (!llvm::sys::fs::exists(path))
    return llvm::Error::success();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError("cannot read '" + path +
                                   "': " + buffer.getError().message());
  llvm::StringRef text = (*buffer)->getBuffer();
  if (text.empty() || text.back() == '\n')
    return llvm::Error::success();
  size_t lineStart = text.rfind('\n');
  lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
  llvm::Expected<llvm::json::Value> last =
      llvm::json::parse(text.substr(lineStart));
  if (last) {
    std::error_code error;
    llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_Append);
    if (!error) {
      os << "\n";
      os.close();
      error = os.error();
      os.clear_error();
    }
    if (error)
      return llvm::createStringError("cannot complete the last line of '" +
                                     path + "': " + error.message());
    return llvm::Error::success();
  }
  llvm::consumeError(last.takeError());
  buffer->reset();
  int fd = -1;
  std::error_code error = llvm::sys::fs::openFileForReadWrite(
      path, fd, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_None);
  if (!error) {
    error = llvm::sys::fs::resize_file(fd, lineStart);
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  if (error)
    return llvm::createStringError("cannot remove the truncated last line "
                                   "of '" +
                                   path + "': " + error.message());
  return llvm::Error::success();
}

llvm::Expected<DatasetWriter> DatasetWriter::open(llvm::StringRef folder,
                                                  llvm::StringRef suffix) {
  if (std::error_code error = llvm::sys::fs::create_directories(folder))
    return llvm::createStringError("cannot create dataset folder '" + folder +
                                   "': " + error.message());
  if (!llvm::sys::fs::is_directory(folder))
    return llvm::createStringError("cannot create dataset folder '" + folder +
                                   "': a file of that name exists");
  DatasetWriter writer;
  writer.programsFile = joinPath(folder, programsFileName(suffix));
  writer.samplesFile = joinPath(folder, samplesFileName(suffix));
  for (const std::string &path : {writer.programsFile, writer.samplesFile}) {
    if (llvm::Error error = repairLastLine(path))
      return std::move(error);
    // Create the file now, so that an unwritable folder fails here.
    std::error_code error;
    llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_Append);
    if (error)
      return llvm::createStringError("cannot open '" + path +
                                     "' for appending: " + error.message());
  }
  return writer;
}

/// Appends `json` and a newline to `path` in one write, then closes it.
static llvm::Error appendLine(const std::string &path,
                              const llvm::json::Value &json) {
  std::string line;
  llvm::raw_string_ostream(line) << json << "\n";
  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_Append);
  if (!error) {
    os.SetUnbuffered();
    os << line;
    os.close();
    error = os.error();
    os.clear_error();
  }
  if (error)
    return llvm::createStringError("cannot append to '" + path +
                                   "': " + error.message());
  return llvm::Error::success();
}

llvm::Error DatasetWriter::add(const ProgramRecord &program) {
  return appendLine(programsFile, toJSON(program));
}

llvm::Error DatasetWriter::add(const SampleRecord &sample, const Space &space) {
  return appendLine(samplesFile, toJSON(sample, space));
}
