#include "audit/trips.h"

#include <functional>

#include "formats/error.h"

namespace f2lay::audit {

namespace {

using Value = std::optional<int64_t>;

// The integer of "arith.constant 64 : i32" (nullopt for a float or a dense
// tensor constant).
Value constantOf(const std::string& text) {
  size_t at = text.find("arith.constant ");
  if (at == std::string::npos) return std::nullopt;
  std::string rest = text.substr(at + 15);
  size_t end = 0;
  int64_t v = 0;
  try {
    v = std::stoll(rest, &end);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  // An integer type must follow ("64 : i32", "1 : index"); "1.0 : f32" is not one.
  std::string type = rest.substr(end);
  if (!(type.starts_with(" : i") || type.starts_with(" : index"))) return std::nullopt;
  return v;
}

int64_t ceilDiv(int64_t a, int64_t b) { return a / b + ((a % b != 0) && ((a < 0) == (b < 0))); }
int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// The integer arith ops of two operands Triton emits for index arithmetic.
const std::map<std::string, std::function<Value(int64_t, int64_t)>>& binaryOps() {
  static const std::map<std::string, std::function<Value(int64_t, int64_t)>> ops = {
      {"arith.addi", [](int64_t a, int64_t b) -> Value { return a + b; }},
      {"arith.subi", [](int64_t a, int64_t b) -> Value { return a - b; }},
      {"arith.muli", [](int64_t a, int64_t b) -> Value { return a * b; }},
      {"arith.divsi",
       [](int64_t a, int64_t b) -> Value { return b ? Value(a / b) : std::nullopt; }},
      {"arith.divui",
       [](int64_t a, int64_t b) -> Value { return b ? Value(a / b) : std::nullopt; }},
      {"arith.ceildivsi",
       [](int64_t a, int64_t b) -> Value { return b ? Value(ceilDiv(a, b)) : std::nullopt; }},
      {"arith.floordivsi",
       [](int64_t a, int64_t b) -> Value { return b ? Value(floorDiv(a, b)) : std::nullopt; }},
      {"arith.remsi",
       [](int64_t a, int64_t b) -> Value { return b ? Value(a % b) : std::nullopt; }},
      {"arith.remui",
       [](int64_t a, int64_t b) -> Value { return b ? Value(a % b) : std::nullopt; }},
      {"arith.maxsi", [](int64_t a, int64_t b) -> Value { return std::max(a, b); }},
      {"arith.minsi", [](int64_t a, int64_t b) -> Value { return std::min(a, b); }},
      {"arith.andi", [](int64_t a, int64_t b) -> Value { return a & b; }},
      {"arith.ori", [](int64_t a, int64_t b) -> Value { return a | b; }},
      {"arith.xori", [](int64_t a, int64_t b) -> Value { return a ^ b; }},
      {"arith.shli",
       [](int64_t a, int64_t b) -> Value {
         return b >= 0 && b < 63 ? Value(a << b) : std::nullopt;
       }},
      {"arith.shrsi",
       [](int64_t a, int64_t b) -> Value {
         return b >= 0 && b < 63 ? Value(a >> b) : std::nullopt;
       }},
  };
  return ops;
}

bool passesThrough(const std::string& name) {
  return name == "arith.index_cast" || name == "arith.extsi" || name == "arith.extui" ||
         name == "arith.trunci";
}

}  // namespace

std::map<size_t, std::optional<int64_t>> loopTrips(const TtgirModule& module,
                                                   const std::map<std::string, int64_t>& arguments,
                                                   const std::vector<int64_t>& grid,
                                                   const std::vector<int64_t>& program) {
  if (grid.size() > 3 || program.size() > 3)
    throw Error("audit: a grid or program id has at most 3 values (x, y, z)");
  for (int64_t g : grid)
    if (g < 1) throw Error("audit: a grid's sizes must be at least 1, got " + std::to_string(g));
  for (size_t k = 0; k < program.size(); ++k)
    if (program[k] < 0 || (!grid.empty() && program[k] >= (k < grid.size() ? grid[k] : 1)))
      throw Error("audit: program id " + std::to_string(program[k]) + " is outside the grid");
  // A launch value of axis x, y or z: given, or the default of an axis past
  // those given (size 1, id 0), or unknown.
  auto launch = [](const std::vector<int64_t>& v, const std::string& text, int64_t past) -> Value {
    size_t at = text.find_first_of("xyz", text.find(' '));
    if (v.empty() || at == std::string::npos) return std::nullopt;
    size_t axis = static_cast<size_t>(text[at] - 'x');
    return axis < v.size() ? Value(v[axis]) : Value(past);
  };
  std::map<std::string, int64_t> values;
  // The kernel's arguments: the first function's operands are its parameters.
  std::vector<std::string> parameters;
  for (const TtgirOp& op : module.ops)
    if (op.name == "tt.func") {
      parameters = op.operands;
      break;
    }
  for (const auto& [name, value] : arguments) {
    if (std::find(parameters.begin(), parameters.end(), "%" + name) == parameters.end()) {
      std::string known;
      for (const std::string& p : parameters) known += (known.empty() ? "" : ", ") + p.substr(1);
      throw Error("audit: the kernel has no argument \"" + name + "\" (its arguments: " + known +
                  ")");
    }
    values["%" + name] = value;
  }
  auto value = [&](const std::string& name) -> Value {
    auto it = values.find(name);
    return it == values.end() ? std::nullopt : Value(it->second);
  };
  std::map<size_t, std::optional<int64_t>> trips;
  for (size_t i = 0; i < module.ops.size(); ++i) {
    const TtgirOp& op = module.ops[i];
    Value result;
    if (op.name == "arith.constant") {
      result = constantOf(op.text);
    } else if (auto f = binaryOps().find(op.name);
               f != binaryOps().end() && op.operands.size() == 2) {
      Value a = value(op.operands[0]), b = value(op.operands[1]);
      if (a && b) result = f->second(*a, *b);
    } else if (op.name == "tt.get_program_id") {
      result = launch(program, op.text, 0);
    } else if (op.name == "tt.get_num_programs") {
      result = launch(grid, op.text, 1);
    } else if (passesThrough(op.name) && op.operands.size() == 1) {
      result = value(op.operands[0]);
    } else if (op.name == "scf.for" && op.operands.size() >= 4) {
      // scf.for %iv = %lower to %upper step %step ...
      Value lower = value(op.operands[1]), upper = value(op.operands[2]),
            step = value(op.operands[3]);
      trips[i] = lower && upper && step && *step > 0
                     ? Value(std::max<int64_t>(0, ceilDiv(*upper - *lower, *step)))
                     : std::nullopt;
    }
    if (result && op.results.size() == 1) values[op.results[0]] = *result;
  }
  return trips;
}

}  // namespace f2lay::audit
