// The f2lay command. Exit codes: 0 ok, 1 a check failed, 2 bad input or usage.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "audit/audit.h"
#include "formats/cute_text.h"
#include "formats/error.h"
#include "formats/formats.h"
#include "formats/json_format.h"
#include "oracle/analysis_ops/pair_checks.h"
#include "oracle/cases.h"
#include "oracle/oracle.h"
#include "reference/catalog/cute.h"
#include "reference/linear_layout.h"
#include "tools/pictures/picture.h"
#include "tools/show.h"
#ifdef F2LAY_WITH_VECTORS  // the vectors' generator draws by the properties (F2LAY_BUILD_TESTS)
#include "tools/vectors/vectors.h"
#endif

namespace {

constexpr int kOk = 0, kCheckFailed = 1, kBadInput = 2;
// Layout files are small; a bigger one is a mistake, not a layout.
constexpr std::streamsize kMaxFileBytes = 64 << 20;

std::string readInput(const std::string& path) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) throw f2lay::Error(path + ": cannot open the file");
    in = &file;
  }
  std::string text(kMaxFileBytes + 1, '\0');
  in->read(text.data(), kMaxFileBytes + 1);
  text.resize(static_cast<size_t>(in->gcount()));
  if (in->bad()) throw f2lay::Error(path + ": read error");
  if (text.size() > static_cast<size_t>(kMaxFileBytes))
    throw f2lay::Error(path + ": larger than 64 MiB");
  return text;
}

// `f2lay show`'s FILE: a file, - for stdin, or a request written inline (an
// argument starting with '{' that names no file), as in
// f2lay show --svg '{"op": "blocked", ...}'.
std::string readShowArgument(const std::string& path) {
  if (!path.empty() && path[0] == '{' && !std::ifstream(path)) return path;
  return readInput(path);
}

bool isCute(const std::string& format) { return format == "cute" || format == "pycute"; }

// `text`, read from `path`, in format `from` (empty: detected). CuTe's text
// (formats/cute_text.h) reads as its memory layout, offset -> dim0..
// (reference/catalog/cute.h).
f2lay::LayoutValue parseLayout(const std::string& path, const std::string& text,
                               const std::string& from) {
  try {
    if (isCute(from) || (from.empty() && f2lay::looksLikeCuteText(text)))
      return f2lay::ref::catalog::cuteTextLayout(f2lay::readCuteText(text)).value();
    if (from.empty()) return f2lay::readLayout(text);
    return f2lay::readLayout(text, *f2lay::formatFromName(from));
  } catch (const f2lay::Error& e) {
    throw f2lay::Error(path + ": " + e.what());
  }
}

// A layout file, or a JSON catalog request such as {"op": "blocked", ...,
// "shape": [64, 64]} whose answer is the layout to show.
f2lay::LayoutValue readShowInput(const std::string& path, const std::string& from) {
  std::string text = readShowArgument(path);
  if (from.empty() && f2lay::detectFormat(text) == f2lay::Format::Json) {
    f2lay::Json json;
    try {
      json = f2lay::parseJson(text);
    } catch (const f2lay::Error& e) {
      throw f2lay::Error(path + ": JSON: " + e.what());
    }
    if (json.is_object() && json.contains("op")) {
      f2lay::Json response = f2lay::oracle::answer(json);
      if (!response["ok"].get<bool>())
        throw f2lay::Error(path + ": " + response["error"].get<std::string>());
      if (!response["result"].is_object() || !response["result"].contains("in_dims"))
        throw f2lay::Error(path + ": op " + json["op"].dump() + " does not give a layout");
      return f2lay::layoutFromJson(response["result"], "result");
    }
  }
  return parseLayout(path, text, from);
}

std::string opsHelp() {
  std::ostringstream s;
  s << "\nProtocol: one JSON request per line on stdin, one JSON response line per\n"
       "request on stdout, in order. Request: {\"op\": NAME, ...args, \"id\": any}\n"
       "(\"id\" is optional and echoed). Response: {\"ok\": true, \"result\": ...} or\n"
       "{\"ok\": false, \"error\": \"...\"}. Blank lines are skipped. Layouts are JSON:\n"
       "{\"in_dims\":[{\"name\":\"register\",\"bases\":[[0,1]]}],"
       "\"out_dims\":[{\"name\":\"dim0\",\"size\":2},...]}.\n"
       "Exit status: 0 when every request succeeded, 2 when any failed, 1 when --check\n"
       "found ref and opt answering differently.\n"
       "Semantics: Triton 3.9.0's. Where Triton 3.6 answers differently, the op takes\n"
       "\"triton\": \"3.6\" to get 3.6's answer; only these ops take it:";
  for (const auto& op : f2lay::oracle::oracleOps())
    for (const auto& arg : op.args)
      if (std::string(arg.key) == "triton") s << " " << op.name;
  s << ".\n\nOps:\n";
  for (const auto& op : f2lay::oracle::oracleOps()) {
    s << "  " << op.name << "(";
    for (size_t i = 0; i < op.args.size(); ++i)
      s << (i ? ", " : "") << op.args[i].key << (op.args[i].required ? "" : "?");
    s << ") -> " << op.result << "\n      " << op.meaning << "\n";
    for (const auto& arg : op.args) s << "      " << arg.key << ": " << arg.description << "\n";
  }
  return s.str();
}

// The ops as the README's table (between its "ops table" markers, which ctest
// readme_ops_table compares with this): one row per op, from the same table
// that --help and the oracle read, so the README cannot drift from them.
std::string opsMarkdown() {
  auto cell = [](std::string s) {
    for (size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.insert(i, "\\");
    return s;
  };
  std::ostringstream s;
  s << "| op | keys (optional in brackets) | result | meaning | answered by |\n"
       "|---|---|---|---|---|\n";
  for (const auto& op : f2lay::oracle::oracleOps()) {
    std::string keys;
    for (const auto& arg : op.args)
      keys += std::string(keys.empty() ? "" : ", ") + (arg.required ? "`" : "[`") + arg.key +
              (arg.required ? "`" : "`]");
    s << "| `" << op.name << "` | " << keys << " | " << cell(op.result) << " | " << cell(op.meaning)
      << " | " << (op.byBoth ? "ref, opt" : "ref") << " |\n";
  }
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"f2lay: a reference model, oracle and verifier for linear layouts over F2"};
  app.set_version_flag("--version", "f2lay 0.1.0");
  app.require_subcommand(1);

  // Which implementation answers (oracle and verify): f2lay::opt by default.
  std::string implName = "opt";
  bool check = false;
  auto addImplOptions = [&](CLI::App* sub) {
    sub->add_option("--impl", implName, "Implementation: opt (bit-packed, default) or ref")
        ->check(CLI::IsMember({"opt", "ref"}));
    sub->add_flag("--check", check,
                  "Answer with both implementations and fail on any difference (exit 1)");
  };

  auto* oracle = app.add_subcommand("oracle", "Answer JSON Lines requests on stdin");
  oracle->footer(opsHelp());
  addImplOptions(oracle);
  bool opsTable = false;
  oracle->add_flag("--markdown", opsTable,
                   "Print the ops as a Markdown table (the README's) and exit");

  auto* verify = app.add_subcommand(
      "verify", "Run every built-in golden case (and any given case files); print a summary");
  std::vector<std::string> caseFiles;
  verify->add_option("--cases", caseFiles, "Extra JSON Lines case files to run");
  addImplOptions(verify);

  auto* show = app.add_subcommand("show", "Print a layout readably");
  std::string showPath, showFrom;
  show->add_option("FILE", showPath,
                   "Layout file (JSON, Triton text or MLIR; - for stdin), or a JSON request "
                   "(a file, or written inline) such as {\"op\": \"blocked\", ..., "
                   "\"shape\": [16, 16]}")
      ->required();
  show->add_option("--from", showFrom, "Input format (default: detected)")
      ->check(CLI::IsMember({"json", "triton", "mlir"}));
  bool showBanksFlag = false;
  uint64_t showWarp = 0;
  show->add_flag("--banks", showBanksFlag,
                 "FILE is a bank_conflicts request: draw the bank each lane of each instruction "
                 "hits, with the lanes and distinct words per bank (a bank scope)");
  show->add_option("--warp", showWarp,
                   "With --banks, or --svg of a bank_conflicts request: the warp to draw "
                   "(default 0)");
  bool showSvg = false;
  uint64_t showElementBytes = 0;  // 0: not given
  uint64_t showInstruction = 0;
  auto* svgFlag = show->add_flag(
      "--svg", showSvg,
      "Write an SVG picture (tools/pictures/picture.h): of a layout or a catalog request, "
      "the tensor's cells by holder or by bank; of a bank_conflicts request, one "
      "instruction's bank scope; of an optimal_swizzle request, swizzled beside unswizzled; "
      "of a conversion request (self, other), A beside B");
  svgFlag->excludes(show->get_option("--banks"));
  show->add_option("--element-bytes", showElementBytes,
                   "With --svg, a memory layout: bytes per element for the banks (default: the "
                   "request's element_bitwidth / 8 or element_bytes, else 4)")
      ->check(CLI::IsMember({1, 2, 4, 8, 16}));
  show->add_option("--instruction", showInstruction,
                   "With --svg of a bank_conflicts request: the warp's instruction to draw "
                   "(default 0)");

  auto* convert = app.add_subcommand("convert", "Convert a layout between formats");
  std::string convertPath, convertFrom, convertTo;
  convert->add_option("FILE", convertPath, "Layout file (- for stdin)")->required();
  convert
      ->add_option(
          "--to", convertTo,
          "Output format (cute: CuTe's C++ print, Sw<3,4,3> o _0 o ((8,2),64):((64,4096),1); "
          "pycute: pycute's str, SW_3_4_3 o 0 o ((8, 2), 64):((64, 4096), 1))")
      ->required()
      ->check(CLI::IsMember({"json", "triton", "mlir", "cute", "pycute"}));
  convert->add_option("--from", convertFrom, "Input format (default: detected)")
      ->check(CLI::IsMember({"json", "triton", "mlir", "cute", "pycute"}));

  auto* audit = app.add_subcommand(
      "audit",
      "Read a compiled Triton kernel (TTGIR) and report every layout it holds and every op "
      "that moves data between layouts");
  std::string auditPath, auditTriton = "3.9";
  bool auditJson = false;
  audit->add_option("FILE", auditPath, "TTGIR file, as Triton prints .asm[\"ttgir\"] (- for stdin)")
      ->required();
  audit->add_flag("--json", auditJson, "Print the report as JSON (vectors/audit.schema.json)");
  bool auditSvg = false;
  audit
      ->add_flag("--svg", auditSvg,
                 "Print an SVG picture of the worst op instead: the bank scope of its costliest "
                 "side on the memory layout Triton uses")
      ->excludes("--json");
  audit->add_option("--triton", auditTriton, "Whose TTGIR and rules: 3.9 (default) or 3.6")
      ->check(CLI::IsMember({"3.9", "3.6"}));
  std::vector<std::string> auditArgs;
  audit->add_option("--arg", auditArgs,
                    "NAME=VALUE: a kernel integer argument's value at the launch, for the loop "
                    "counts (repeat for several)");
  std::string auditGrid, auditProgram;
  audit->add_option("--grid", auditGrid,
                    "X[,Y[,Z]]: the launch's grid (tt.get_num_programs), for loop counts that "
                    "depend on it");
  audit->add_option("--program", auditProgram,
                    "X[,Y[,Z]]: the CTA's program id (tt.get_program_id), for loop counts that "
                    "depend on it (one CTA's report)");

#ifdef F2LAY_WITH_VECTORS
  auto* vectors = app.add_subcommand(
      "vectors", "Generate the golden vectors (vectors/*.json), or check stored ones");
  std::string vectorsOut, vectorsCheck;
  auto* vectorsOutOpt = vectors->add_option("--out", vectorsOut, "Write the files into DIR");
  vectors
      ->add_option("--check", vectorsCheck,
                   "Regenerate and compare with the files in DIR: exit 1 naming each "
                   "difference")
      ->excludes(vectorsOutOpt);
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kBadInput;
  }

  using f2lay::oracle::Impl;
  Impl impl = check ? Impl::kCheck : implName == "ref" ? Impl::kRef : Impl::kOpt;
  try {
    if (oracle->parsed() && opsTable) {
      std::cout << opsMarkdown();
      return kOk;
    }
    if (oracle->parsed()) {
      // Synced with C stdio (the default), std::cin has no buffer: every
      // character is a getc and an ungetc (a sixth of a 32-bit compose
      // request's time), and serve could not see whether the next request
      // is already here. Nothing in f2lay uses C stdio, and no I/O has
      // happened yet.
      std::ios::sync_with_stdio(false);
      f2lay::oracle::Served served = f2lay::oracle::serve(std::cin, std::cout, impl);
      return served.differences ? kCheckFailed : served.failures ? kBadInput : kOk;
    }
    if (verify->parsed()) {
      std::vector<f2lay::oracle::CaseFile> files = f2lay::oracle::builtinCaseFiles();
      for (const std::string& path : caseFiles) files.push_back({path, readInput(path)});
      return f2lay::oracle::verifyAndReport(files, std::cout, f2lay::oracle::runCatalogPairChecks(),
                                            impl) == 0
                 ? kOk
                 : kCheckFailed;
    }
#ifdef F2LAY_WITH_VECTORS
    if (vectors->parsed()) {
      if (vectorsOut.empty() && vectorsCheck.empty())
        throw f2lay::Error("vectors: give --out DIR or --check DIR");
      std::vector<f2lay::tools::VectorFile> files;
      try {
        files = f2lay::tools::generateVectors();
      } catch (const f2lay::Error& e) {
        std::cerr << "f2lay: " << e.what() << '\n';
        return kCheckFailed;  // a golden case or ref against opt failed
      }
      if (!vectorsOut.empty()) {
        f2lay::tools::writeVectors(files, vectorsOut);
        std::cout << "f2lay vectors: wrote " << files.size() << " files into " << vectorsOut
                  << '\n';
        return kOk;
      }
      size_t differ = f2lay::tools::compareVectors(files, vectorsCheck, std::cout);
      std::cout << "f2lay vectors: " << files.size() - differ << " of " << files.size()
                << " files regenerate identically\n";
      return differ ? kCheckFailed : kOk;
    }
#endif
    if (audit->parsed()) {
      f2lay::Json report;
      f2lay::audit::AuditOptions options;
      options.triton = f2lay::parseTritonVersion(auditTriton);
      for (const std::string& arg : auditArgs) {
        size_t eq = arg.find('=');
        try {
          size_t end = 0;
          if (eq == std::string::npos || eq == 0) throw std::invalid_argument("no name");
          options.arguments[arg.substr(0, eq)] = std::stoll(arg.substr(eq + 1), &end);
          if (end != arg.size() - eq - 1) throw std::invalid_argument("trailing text");
        } catch (const std::exception&) {
          throw f2lay::Error("audit: --arg \"" + arg + "\" is not NAME=INTEGER");
        }
      }
      auto triple = [](const std::string& name, const std::string& text) {
        std::vector<int64_t> out;
        if (text.empty()) return out;
        std::stringstream in(text);
        for (std::string part; std::getline(in, part, ',');) {
          try {
            size_t end = 0;
            out.push_back(std::stoll(part, &end));
            if (end != part.size()) throw std::invalid_argument("trailing text");
          } catch (const std::exception&) {
            throw f2lay::Error("audit: " + name + " \"" + text + "\" is not X[,Y[,Z]] integers");
          }
        }
        return out;
      };
      options.grid = triple("--grid", auditGrid);
      options.program = triple("--program", auditProgram);
      try {
        report = f2lay::audit::auditTtgir(readInput(auditPath), options);
      } catch (const f2lay::Error& e) {
        throw f2lay::Error(auditPath + ": " + e.what());
      }
      if (auditSvg) {
        f2lay::Json request = f2lay::audit::worstOpPicture(report);
        if (request.is_null())
          throw f2lay::Error(auditPath +
                             ": no op moves data through shared memory at a cost "
                             "f2lay models: nothing to draw");
        std::cout << f2lay::tools::pictures::svgPicture(request);
        return kOk;
      }
      std::cout << (auditJson ? report.dump(1) + "\n" : f2lay::audit::auditTable(report));
      return kOk;
    }
    if (show->parsed() && showSvg) {
      std::string text = readShowArgument(showPath);
      f2lay::Json input;
      if (showFrom.empty() && f2lay::detectFormat(text) == f2lay::Format::Json) {
        try {
          input = f2lay::parseJson(text);
        } catch (const f2lay::Error& e) {
          throw f2lay::Error(showPath + ": JSON: " + e.what());
        }
      } else {
        input = f2lay::layoutToJson(parseLayout(showPath, text, showFrom));
      }
      try {
        std::cout << f2lay::tools::pictures::svgPicture(
            input, {showElementBytes ? std::optional<uint64_t>(showElementBytes) : std::nullopt,
                    showWarp, showInstruction});
      } catch (const f2lay::Error& e) {
        throw f2lay::Error(showPath + ": " + e.what());
      }
      return kOk;
    }
    if (show->parsed() && showBanksFlag) {
      f2lay::Json request;
      try {
        request = f2lay::parseJson(readShowArgument(showPath));
      } catch (const f2lay::Error& e) {
        throw f2lay::Error(showPath + ": JSON: " + e.what());
      }
      f2lay::tools::showBanks(request, showWarp, std::cout);
      return kOk;
    }
    if (show->parsed()) {
      f2lay::tools::showLayout(f2lay::ref::LinearLayout(readShowInput(showPath, showFrom)),
                               std::cout);
      return kOk;
    }
    if (convert->parsed()) {
      f2lay::LayoutValue layout = parseLayout(convertPath, readInput(convertPath), convertFrom);
      if (isCute(convertTo)) {
        f2lay::CuteText cute =
            f2lay::ref::catalog::layoutCuteText(f2lay::ref::LinearLayout(layout));
        std::cout << f2lay::writeCuteText(cute, convertTo == "cute" ? f2lay::CuteStyle::Cpp
                                                                    : f2lay::CuteStyle::Pycute)
                  << '\n';
        return kOk;
      }
      std::cout << f2lay::writeLayout(layout, *f2lay::formatFromName(convertTo));
      return kOk;
    }
  } catch (const f2lay::Error& e) {
    std::cerr << "f2lay: " << e.what() << '\n';
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "f2lay: internal error: " << e.what() << '\n';
    return kBadInput;
  }
  return kBadInput;
}
