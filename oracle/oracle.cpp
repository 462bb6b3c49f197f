#include "oracle/oracle.h"

#include <algorithm>
#include <functional>
#include <istream>
#include <map>
#include <ostream>

#include "formats/error.h"
#include "oracle/op_table.h"
#include "reference/linear_layout.h"

namespace f2lay::oracle {

namespace {

const OpArg kLayout{"layout", "the layout"};
const OpArg kSelf{"self", "the layout the method is called on"};
const OpArg kOther{"other", "the second layout"};
// Only the ops whose answer depends on Triton's release take this key.
const OpArg kTriton{
    "triton", "\"3.9\" (default: the current release) or \"3.6\": whose rules to follow", false};

// The algebra ops, written once for both implementations: L is
// ref::LinearLayout or opt::LinearLayout (the same API).
template <class L>
std::vector<Op> algebraOps() {
  return {
      {{"identity_1d",
        {{"size", "a power of two, or 0 for the empty layout"},
         {"in_dim", "in dim name"},
         {"out_dim", "out dim name"}},
        "layout",
        "in=2^i -> out=2^i"},
       [](const Args& a) {
         return layoutJson(L::identity1D(a.number("size"), a.name("in_dim"), a.name("out_dim")));
       }},
      {{"zeros_1d",
        {{"size", "a power of two, or 0"},
         {"in_dim", "in dim name"},
         {"out_dim", "out dim name"},
         {"out_dim_size", "size of the out dim (default 1)", false}},
        "layout",
        "every input maps to 0"},
       [](const Args& a) {
         return layoutJson(L::zeros1D(a.number("size"), a.name("in_dim"), a.name("out_dim"),
                                      a.has("out_dim_size") ? a.number("out_dim_size") : 1));
       }},
      {{"strided_1d",
        {{"size", "a power of two, or 0"},
         {"stride", "a power of two"},
         {"in_dim", "in dim name"},
         {"out_dim", "out dim name"}},
        "layout",
        "in=2^i -> out=stride*2^i, out dim of size size*stride"},
       [](const Args& a) {
         return layoutJson(L::strided1D(a.number("size"), a.number("stride"), a.name("in_dim"),
                                        a.name("out_dim")));
       }},
      {{"apply",
        {kLayout, {"input", "{in dim: value} for every in dim"}},
        "{out dim: value}",
        "L(x): the XOR of the bases of the set input bits"},
       [](const Args& a) {
         return dimValuesJson(a.layoutAs<L>("layout").apply(a.dimValues("input")));
       }},
      {{"compose",
        {kSelf, kOther},
        "layout",
        "x -> other(self(x)) (Def 4.2); self's out dims are other's in dims"},
       [](const Args& a) {
         return layoutJson(a.layoutAs<L>("self").compose(a.layoutAs<L>("other")));
       }},
      {{"product",
        {{"self", "the inner layout"}, {"other", "the outer layout"}},
        "layout",
        "self * other (Def 4.3): block-diagonal, self in the low bits"},
       [](const Args& a) { return layoutJson(a.layoutAs<L>("self") * a.layoutAs<L>("other")); }},
      {{"divide_left",
        {{"self", "the dividend A"}, {"other", "the divisor B"}},
        "layout or null",
        "C with B * C == A (Def 4.4); null when A is not divisible by B"},
       [](const Args& a) {
         auto c = divideLeft(a.layoutAs<L>("self"), a.layoutAs<L>("other"));
         return c ? layoutJson(*c) : Json(nullptr);
       }},
      {{"invert", {kLayout, kTriton}, "layout", "the inverse of an invertible layout"},
       [](const Args& a) { return layoutJson(a.layoutAs<L>("layout").invert(a.triton())); }},
      {{"pseudoinvert",
        {kLayout, kTriton},
        "layout",
        "the right inverse of a surjective layout (Def 4.5), free input bits zero"},
       [](const Args& a) { return layoutJson(a.layoutAs<L>("layout").pseudoinvert(a.triton())); }},
      {{"invert_and_compose",
        {kSelf, kOther, kTriton},
        "layout",
        "C with other(C(x)) == self(x); in dims both map alike map to themselves "
        "(Triton's heuristic, as the release names it), the rest solved with free bits zero"},
       [](const Args& a) {
         return layoutJson(
             a.layoutAs<L>("self").invertAndCompose(a.layoutAs<L>("other"), a.triton()));
       }},
      {{"transpose_ins",
        {kLayout, {"new_in_dims", "the in dim names, reordered"}},
        "layout",
        "the same map with the in dims reordered"},
       [](const Args& a) {
         return layoutJson(a.layoutAs<L>("layout").transposeIns(a.names("new_in_dims")));
       }},
      {{"transpose_outs",
        {kLayout, {"new_out_dims", "the out dim names, reordered"}},
        "layout",
        "the same map with the out dims reordered"},
       [](const Args& a) {
         return layoutJson(a.layoutAs<L>("layout").transposeOuts(a.names("new_out_dims")));
       }},
      {{"reshape_ins",
        {kLayout, {"new_in_dims", "[{\"name\": ..., \"size\": ...}]"}},
        "layout",
        "flatten the in dims (first is minor), then split them into the new dims"},
       [](const Args& a) {
         return layoutJson(a.layoutAs<L>("layout").reshapeIns(a.dimSizes("new_in_dims")));
       }},
      {{"reshape_outs",
        {kLayout, {"new_out_dims", "[{\"name\": ..., \"size\": ...}]"}},
        "layout",
        "flatten the out dims (first is minor), then split them into the new dims"},
       [](const Args& a) {
         return layoutJson(a.layoutAs<L>("layout").reshapeOuts(a.dimSizes("new_out_dims")));
       }},
      {{"flatten_ins", {kLayout}, "layout", "one in dim, named as the first"},
       [](const Args& a) { return layoutJson(a.layoutAs<L>("layout").flattenIns()); }},
      {{"flatten_outs", {kLayout}, "layout", "one out dim, named as the first"},
       [](const Args& a) { return layoutJson(a.layoutAs<L>("layout").flattenOuts()); }},
      {{"sublayout",
        {kLayout, {"in_dim_names", "in dims to keep"}, {"out_dim_names", "out dims to keep"}},
        "layout",
        "the restriction to some dims, kept in the layout's order"},
       [](const Args& a) {
         return layoutJson(
             a.layoutAs<L>("layout").sublayout(a.names("in_dim_names"), a.names("out_dim_names")));
       }},
      {{"sublayout_is_zero",
        {kLayout, {"in_dim_names", "in dims to keep"}, {"out_dim_names", "out dims to keep"}},
        "bool",
        "whether that restriction maps every input to 0 (Triton's sublayoutIsZero)"},
       [](const Args& a) {
         return Json(a.layoutAs<L>("layout").sublayoutIsZero(a.names("in_dim_names"),
                                                             a.names("out_dim_names")));
       }},
      {{"concat_ins",
        {kSelf, kOther},
        "layout",
        "self's in dims, then other's; the out dims must be equal"},
       [](const Args& a) {
         return layoutJson(a.layoutAs<L>("self").concatIns(a.layoutAs<L>("other")));
       }},
      {{"concat_outs",
        {kSelf, kOther},
        "layout",
        "self's out dims, then other's; the in dims must be equal"},
       [](const Args& a) {
         return layoutJson(a.layoutAs<L>("self").concatOuts(a.layoutAs<L>("other")));
       }},
      {{"is_injective", {kLayout}, "bool", "rank == input bits"},
       [](const Args& a) { return Json(a.layoutAs<L>("layout").isInjective()); }},
      {{"is_surjective", {kLayout}, "bool", "rank == output bits"},
       [](const Args& a) { return Json(a.layoutAs<L>("layout").isSurjective()); }},
      {{"is_invertible", {kLayout}, "bool", "injective and surjective"},
       [](const Args& a) { return Json(a.layoutAs<L>("layout").isInvertible()); }},
      {{"free_variable_masks",
        {kLayout},
        "{in dim: mask}",
        "input bits whose basis is a combination of earlier bases"},
       [](const Args& a) { return dimValuesJson(a.layoutAs<L>("layout").getFreeVariableMasks()); }},
      {{"num_consecutive_in_out",
        {kLayout},
        "integer",
        "consecutive values of the first in dim that map to consecutive values of "
        "the first out dim"},
       [](const Args& a) { return Json(a.layoutAs<L>("layout").getNumConsecutiveInOut()); }},
      {{"matrix_view",
        {kLayout},
        "[[0/1, ...], ...]",
        "rows = output bits, columns = input bits (Triton's get_matrix_view)"},
       [](const Args& a) { return Json(a.layoutAs<L>("layout").getMatrixView()); }},
      {{"equal",
        {kSelf, kOther},
        "bool",
        "same dims in the same order, same bases, same out-dim sizes"},
       [](const Args& a) { return Json(a.layoutAs<L>("self") == a.layoutAs<L>("other")); }},
  };
}

}  // namespace

const std::vector<Op>& opTable() {
  static const std::vector<Op> table = [] {
    std::vector<Op> all = algebraOps<ref::LinearLayout>();
    std::vector<Op> optOps = algebraOps<opt::LinearLayout>();
    for (size_t i = 0; i < all.size(); ++i) all[i].runOpt = optOps[i].run;
    for (std::vector<Op> (*family)() :
         {blockedOps, sliceOps, sharedOps, mmaOps, shapeTransferOps, amdOps, amdScaleOps, cuteOps,
          linearOps, tmemOps, bankOps, swizzleOps, conversionOps}) {
      std::vector<Op> more = family();
      all.insert(all.end(), more.begin(), more.end());
    }
    return all;
  }();
  return table;
}

namespace {

const Op& findOp(const Json& request) {
  if (!request.is_object()) throw Error("the request must be a JSON object");
  if (!request.contains("op")) throw Error("the request has no \"op\"");
  if (!request["op"].is_string()) throw Error("\"op\" must be a string");
  std::string name = request["op"].get<std::string>();
  for (const Op& op : opTable())
    if (op.doc.name == name) return op;
  throw Error("unknown op \"" + name + "\" (f2lay oracle --help lists the ops)");
}

void checkKeys(const Op& op, const Json& request) {
  for (const OpArg& arg : op.doc.args)
    if (arg.required && !request.contains(arg.key))
      throw Error(op.doc.name + ": missing key \"" + arg.key + "\" (" + arg.description + ")");
  for (const auto& [key, value] : request.items()) {
    if (key == "op" || key == "id") continue;
    bool known = false;
    for (const OpArg& arg : op.doc.args) known = known || key == arg.key;
    if (!known) throw Error(op.doc.name + ": unknown key \"" + key + "\"");
  }
}

}  // namespace

const std::vector<OpDoc>& oracleOps() {
  static const std::vector<OpDoc> docs = [] {
    std::vector<OpDoc> d;
    for (const Op& op : opTable()) {
      d.push_back(op.doc);
      d.back().byBoth = op.runOpt != nullptr;
    }
    return d;
  }();
  return docs;
}

Json attempt(const std::function<Json(const Args&)>& run, const Args& args) {
  try {
    return {{"ok", true}, {"result", run(args)}};
  } catch (const Error& e) {
    return {{"ok", false}, {"error", e.what()}};
  } catch (const std::exception& e) {
    // Not expected: every rule is checked and reported as f2lay::Error. Kept so
    // that one request can never take the stream down.
    return {{"ok", false}, {"error", std::string("internal error: ") + e.what()}};
  }
}

Json answer(const Json& request, Impl impl) {
  Json response = Json::object();
  if (request.is_object() && request.contains("id")) response["id"] = request["id"];
  Json outcome;
  try {
    const Op& op = findOp(request);
    checkKeys(op, request);
    Args args(request);
    if (!op.runOpt || impl == Impl::kRef) {
      outcome = attempt(op.run, args);
    } else if (impl == Impl::kOpt) {
      outcome = attempt(op.runOpt, args);
    } else {
      Json byRef = attempt(op.run, args), byOpt = attempt(op.runOpt, args);
      outcome = byRef;
      if (byRef != byOpt)
        outcome = {{"ok", false},
                   {"check_failed", true},
                   {"error", "check: f2lay::ref and f2lay::opt differ: ref answered " +
                                 dumpLine(byRef) + ", opt answered " + dumpLine(byOpt)}};
    }
  } catch (const Error& e) {
    outcome = {{"ok", false}, {"error", e.what()}};
  }
  for (auto& [key, value] : outcome.items()) response[key] = std::move(value);
  return response;
}

Json answerLine(std::string_view line, Impl impl) {
  Json request;
  try {
    request = parseJson(line);
  } catch (const Error& e) {
    return Json{{"ok", false}, {"error", std::string("bad JSON: ") + e.what()}};
  }
  return answer(request, impl);
}

std::string dumpLine(const Json& response) {
  return response.dump(-1, ' ', false, Json::error_handler_t::replace);
}

namespace {

// The lines of a stream, read in blocks, that can tell whether the next line
// is already here in full. serve flushes its answers only before it could
// wait for input: a client that waits for each answer still gets it at once,
// and a stream of requests gets its answers in blocks, not a write per line.
class LineReader {
 public:
  explicit LineReader(std::streambuf& in) : in_(in) {}

  // Whether next() can return a line without waiting for input.
  bool lineReady() {
    if (eol_ == std::string::npos) {
      eol_ = text_.find('\n', scanned_);
      scanned_ = text_.size();  // a long line is scanned once, not once per block
    }
    return eol_ != std::string::npos;
  }

  // The next line without its '\n' (the last may lack one); false at the end.
  bool next(std::string& line) {
    while (!lineReady()) {
      if (!fill()) {
        if (text_.empty()) return false;
        line = std::move(text_);
        text_.clear();
        scanned_ = 0;
        return true;
      }
    }
    line.assign(text_, pos_, eol_ - pos_);
    pos_ = scanned_ = eol_ + 1;
    eol_ = std::string::npos;
    return true;
  }

 private:
  // Drops the lines read and appends what the stream has, waiting only for
  // its first byte; false at the end of the stream.
  bool fill() {
    text_.erase(0, pos_);
    scanned_ -= pos_;
    pos_ = 0;
    if (in_.sgetc() == std::char_traits<char>::eof()) return false;
    // in_avail() is 0 for a stream without a buffer (std::cin synced with
    // stdio): a byte at a time then, as std::getline reads it.
    std::streamsize n = std::max<std::streamsize>(in_.in_avail(), 1);
    size_t old = text_.size();
    text_.resize(old + static_cast<size_t>(n));
    text_.resize(old + static_cast<size_t>(in_.sgetn(text_.data() + old, n)));
    return true;
  }

  std::streambuf& in_;
  std::string text_;  // [pos_, end): not returned yet
  size_t pos_ = 0;
  size_t scanned_ = 0;              // [pos_, scanned_) holds no '\n'
  size_t eol_ = std::string::npos;  // the next '\n', once found
};

}  // namespace

Served serve(std::istream& in, std::ostream& out, Impl impl) {
  Served counts;
  LineReader lines(*in.rdbuf());
  std::string line;
  for (;;) {
    if (!lines.lineReady()) out << std::flush;
    if (!lines.next(line)) break;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    Json response = answerLine(line, impl);
    if (!response["ok"].get<bool>()) ++counts.failures;
    if (response.contains("check_failed")) ++counts.differences;
    out << dumpLine(response) << '\n';
  }
  return counts;
}

}  // namespace f2lay::oracle
