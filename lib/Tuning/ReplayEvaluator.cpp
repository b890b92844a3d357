//===- ReplayEvaluator.cpp - Outcomes read from a recorded table ----------===//

#include "tuner/Tuning/ReplayEvaluator.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace tuner;

namespace {

/// The fields of a row besides the config.
struct RowFields {
  std::optional<double> time, compile, run;
  std::string status = "ok";

  /// The field a key or column of seconds fills ("time", "compile_s",
  /// "run_s"), or null for any other.
  std::optional<double> *seconds(llvm::StringRef key) {
    if (key == "time")
      return &time;
    if (key == "compile_s")
      return &compile;
    if (key == "run_s")
      return &run;
    return nullptr;
  }
};

llvm::Error rowError(llvm::StringRef name, size_t line, const llvm::Twine &what) {
  return llvm::createStringError(name + ":" + llvm::Twine(line) + ": " + what);
}

/// Splits one CSV line into cells ("..." quotes a cell, "" inside is a
/// quote). Fails on an unclosed quote.
llvm::Expected<std::vector<std::string>> splitCSV(llvm::StringRef line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cells.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  if (quoted)
    return llvm::createStringError("unclosed quote");
  for (std::string &cell : cells)
    cell = llvm::StringRef(cell).trim().str();
  return cells;
}

/// A CSV cell as a JSON value: JSON when it reads as JSON, else a string.
llvm::json::Value cellValue(llvm::StringRef cell) {
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(cell);
  if (json)
    return std::move(*json);
  llvm::consumeError(json.takeError());
  return cell.str();
}

/// Reads an optional non-negative number (null: absent).
llvm::Error readSeconds(const llvm::json::Value *value, llvm::StringRef key,
                        std::optional<double> &out) {
  if (!value || value->getAsNull())
    return llvm::Error::success();
  std::optional<double> number = value->getAsNumber();
  if (!number || !std::isfinite(*number))
    return llvm::createStringError("'" + key +
                                   "' must be a finite number or null");
  out = *number;
  return llvm::Error::success();
}

} // namespace

llvm::Error ReplayEvaluator::addRow(const Config &config, Row row,
                                    size_t line) {
  if (!rows.emplace(config.hash(), row).second) {
    std::string text;
    llvm::raw_string_ostream(text) << config.toJSON(space);
    return rowError(name, line, "config " + text + " is recorded twice");
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<ReplayEvaluator>>
ReplayEvaluator::parse(llvm::StringRef text, llvm::StringRef name, bool csv,
                       const Space &space, Objective objective) {
  std::unique_ptr<ReplayEvaluator> table(
      new ReplayEvaluator(space, name.str(), objective));
  // Turns one row (its config as JSON and its fields) into a table entry.
  auto add = [&](const llvm::json::Value &configJSON, const RowFields &fields,
                 size_t line) -> llvm::Error {
    llvm::Expected<Config> config = Config::fromJSON(space, configJSON);
    if (!config)
      return rowError(name, line, llvm::toString(config.takeError()));
    if (llvm::Error error = space.check(*config))
      return rowError(name, line,
                      "the config is not in the space: " +
                          llvm::toString(std::move(error)));
    std::optional<Status> status = parseStatus(fields.status);
    if (!status)
      return rowError(name, line,
                      "unknown status '" + fields.status + "' (expected " +
                          statusNames() + ")");
    Row row;
    row.status = *status;
    if (row.status == Status::Ok) {
      if (!fields.time)
        return rowError(name, line, "an 'ok' row needs a time");
      row.objective = *fields.time;
    }
    if (fields.compile || fields.run)
      row.costSeconds = fields.compile.value_or(0) + fields.run.value_or(0);
    else if (fields.time && objective == Objective::Minimize)
      row.costSeconds = std::max(0.0, *fields.time);
    return table->addRow(*config, row, line);
  };

  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  std::vector<std::string> header;
  for (auto [index, rawLine] : llvm::enumerate(lines)) {
    size_t line = index + 1;
    llvm::StringRef trimmed = rawLine.trim();
    if (trimmed.empty())
      continue;
    if (!csv) {
      llvm::Expected<llvm::json::Value> json = llvm::json::parse(trimmed);
      if (!json)
        return rowError(name, line, llvm::toString(json.takeError()));
      const llvm::json::Object *object = json->getAsObject();
      if (!object)
        return rowError(name, line, "expected a JSON object");
      RowFields fields;
      const llvm::json::Value *configJSON = nullptr;
      for (const auto &[key, value] : *object) {
        if (key == "config") {
          configJSON = &value;
        } else if (key == "status") {
          std::optional<llvm::StringRef> status = value.getAsString();
          if (!status)
            return rowError(name, line, "'status' must be a string");
          fields.status = status->str();
        } else if (std::optional<double> *out = fields.seconds(key)) {
          if (llvm::Error error = readSeconds(&value, key, *out))
            return rowError(name, line, llvm::toString(std::move(error)));
        } else {
          return rowError(name, line,
                          "unknown field '" + key.str() +
                              "' (expected config, time, status, compile_s, "
                              "run_s)");
        }
      }
      if (!configJSON)
        return rowError(name, line, "missing field 'config'");
      if (llvm::Error error = add(*configJSON, fields, line))
        return std::move(error);
      continue;
    }
    llvm::Expected<std::vector<std::string>> cells = splitCSV(trimmed);
    if (!cells)
      return rowError(name, line, llvm::toString(cells.takeError()));
    if (header.empty()) {
      header = std::move(*cells);
      if (!llvm::is_contained(header, "time"))
        return rowError(name, line, "the header has no 'time' column");
      continue;
    }
    if (cells->size() != header.size())
      return rowError(name, line,
                      llvm::Twine(cells->size()) + " cells, but the header has " +
                          llvm::Twine(header.size()) + " columns");
    RowFields fields;
    llvm::json::Object config;
    for (auto [column, cell] : llvm::zip(header, *cells)) {
      if (column == "status") {
        fields.status = cell;
      } else if (std::optional<double> *out = fields.seconds(column)) {
        if (cell.empty())
          continue;
        // "null" reads as JSON null: absent, like an empty cell.
        llvm::json::Value value = cellValue(cell);
        if (llvm::Error error = readSeconds(&value, column, *out))
          return rowError(name, line, llvm::toString(std::move(error)));
      } else {
        config[column] = cellValue(cell);
      }
    }
    if (llvm::Error error =
            add(llvm::json::Value(std::move(config)), fields, line))
      return std::move(error);
  }
  if (table->rows.empty())
    return llvm::createStringError(name + ": the table has no rows");
  return std::move(table);
}

llvm::Expected<std::unique_ptr<ReplayEvaluator>>
ReplayEvaluator::load(llvm::StringRef path, const Space &space,
                      Objective objective) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError("cannot read '" + path +
                                   "': " + buffer.getError().message());
  return parse((*buffer)->getBuffer(), path, path.ends_with_insensitive(".csv"),
               space, objective);
}

const ReplayEvaluator::Row *ReplayEvaluator::find(const Config &config) const {
  auto found = rows.find(config.hash());
  return found == rows.end() ? nullptr : &found->second;
}

std::vector<Observation>
ReplayEvaluator::evaluate(llvm::ArrayRef<Config> configs) {
  std::vector<Observation> observations;
  for (const Config &config : configs) {
    const Row *row = find(config);
    if (!row) {
      std::string text;
      llvm::raw_string_ostream(text) << config.toJSON(space);
      fatal = "the table '" + name + "' has no row for config " + text +
              " (a replay never guesses)";
      return observations;
    }
    Observation observation;
    observation.config = config;
    observation.status = row->status;
    observation.costSeconds = row->costSeconds;
    simulated += row->costSeconds;
    if (row->status == Status::Ok) {
      observation.objective = row->objective;
      observation.value = valueOfObjective(objective, row->objective);
      observation.minSeconds = observation.medianSeconds =
          observation.maxSeconds = std::max(row->objective, 1e-12);
      observation.repetitions = 1;
    } else {
      observation.message = "recorded as " + statusName(row->status).str();
    }
    observations.push_back(std::move(observation));
  }
  return observations;
}
