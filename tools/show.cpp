#include "tools/show.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>

#include "oracle/op_table.h"
#include "reference/analysis/bank_conflicts.h"

namespace f2lay::tools {

namespace {

void printMatrix(const ref::LinearLayout& l, std::ostream& out) {
  const LayoutValue& v = l.value();
  std::vector<std::string> rowLabels;
  for (const OutDim& d : v.out_dims)
    for (int j = 0; j < log2Exact(d.size); ++j)
      rowLabels.push_back(d.name + "[" + std::to_string(j) + "]");
  size_t labelWidth = 0;
  for (const std::string& s : rowLabels) labelWidth = std::max(labelWidth, s.size());
  // Each in dim is a group of 2-character columns, at least as wide as its name.
  std::vector<size_t> groupWidth;
  for (const InDim& d : v.in_dims)
    groupWidth.push_back(std::max(d.name.size() + 1, 2 * d.bases.size()));
  out << std::string(labelWidth + 2, ' ');
  for (size_t g = 0; g < v.in_dims.size(); ++g)
    out << std::left << std::setw(static_cast<int>(groupWidth[g]) + 1) << v.in_dims[g].name;
  out << '\n' << std::string(labelWidth + 2, ' ');
  for (size_t g = 0; g < v.in_dims.size(); ++g) {
    std::string bits;
    for (size_t i = 0; i < v.in_dims[g].bases.size(); ++i) bits += std::to_string(i % 10) + " ";
    out << std::left << std::setw(static_cast<int>(groupWidth[g]) + 1) << bits;
  }
  out << '\n';
  ref::MatrixView m = l.getMatrixView();
  for (size_t r = 0; r < m.size(); ++r) {
    out << std::left << std::setw(static_cast<int>(labelWidth) + 2) << rowLabels[r];
    size_t c = 0;
    for (size_t g = 0; g < v.in_dims.size(); ++g) {
      std::string cells;
      for (size_t i = 0; i < v.in_dims[g].bases.size(); ++i, ++c)
        cells += std::to_string(m[r][c]) + " ";
      out << std::left << std::setw(static_cast<int>(groupWidth[g]) + 1) << cells;
    }
    out << '\n';
  }
}

bool isHardwareLayout(const LayoutValue& v) {
  for (const InDim& d : v.in_dims)
    if (d.name != "register" && d.name != "lane" && d.name != "warp" && d.name != "block")
      return false;
  return !v.in_dims.empty();
}

// "b1w0t5r2": the input, naming only dims with more than one value, thread
// standing for lane as in the paper's Figure 1.
std::string holderLabel(const LayoutValue& v, const std::map<std::string, uint64_t>& in) {
  std::string s;
  for (const char* name : {"block", "warp", "lane", "register"})
    for (const InDim& d : v.in_dims)
      if (d.name == name && !d.bases.empty())
        s += std::string(1, name == std::string("lane") ? 't' : name[0]) +
             std::to_string(in.at(name));
  return s.empty() ? "*" : s;
}

void printOwnership(const ref::LinearLayout& l, std::ostream& out) {
  const LayoutValue& v = l.value();
  int inBits = l.getTotalInDimSizeLog2(), outBits = l.getTotalOutDimSizeLog2();
  if (!isHardwareLayout(v) || outBits > 12 || inBits > 20) return;
  // Enumerate every input; remember the first holder of each element and how
  // many hold it.
  std::vector<std::string> first(size_t{1} << outBits);
  std::vector<size_t> count(size_t{1} << outBits, 0);
  for (uint64_t x = 0; x < (uint64_t{1} << inBits); ++x) {
    ref::DimValues in;
    std::map<std::string, uint64_t> named;
    int shift = 0;
    for (const InDim& d : v.in_dims) {
      uint64_t val = (x >> shift) & ((uint64_t{1} << d.bases.size()) - 1);
      in.push_back({d.name, val});
      named[d.name] = val;
      shift += static_cast<int>(d.bases.size());
    }
    uint64_t flat = 0;
    int outShift = 0;
    for (const auto& [dim, val] : l.apply(in)) {
      flat |= val << outShift;
      outShift += l.getOutDimSizeLog2(dim);
    }
    if (count[flat]++ == 0) first[flat] = holderLabel(v, named);
  }
  std::vector<std::string> cells;
  size_t width = 1;
  for (size_t e = 0; e < first.size(); ++e) {
    std::string cell = count[e] == 0 ? "." : first[e];
    if (count[e] > 1) cell += "+" + std::to_string(count[e] - 1);
    width = std::max(width, cell.size());
    cells.push_back(cell);
  }
  out << "\nholders of each element (w = warp, t = lane, r = register; +k: k more "
         "hold it; .: none):\n";
  uint64_t cols = v.out_dims.size() >= 2 ? v.out_dims[1].size : 1;
  uint64_t rows = v.out_dims.empty() ? 1 : v.out_dims[0].size;
  if (v.out_dims.size() >= 2)
    out << "rows: " << v.out_dims[0].name << ", columns: " << v.out_dims[1].name << '\n';
  else if (!v.out_dims.empty())
    out << "one column of " << v.out_dims[0].name << '\n';
  uint64_t slice = rows * cols;
  for (uint64_t base = 0; base < cells.size(); base += slice) {
    if (v.out_dims.size() > 2) {
      out << "slice";
      uint64_t rest = base / slice;
      for (size_t k = 2; k < v.out_dims.size(); ++k) {
        out << ' ' << v.out_dims[k].name << '=' << rest % v.out_dims[k].size;
        rest /= v.out_dims[k].size;
      }
      out << ":\n";
    }
    // Element (i, j) sits at flat index i + rows * j (the first dim is minor).
    for (uint64_t i = 0; i < rows; ++i) {
      for (uint64_t j = 0; j < cols; ++j)
        out << std::left << std::setw(static_cast<int>(width) + 1) << cells[base + i + rows * j];
      out << '\n';
    }
  }
}

void printRow(const char* label, const std::vector<uint64_t>& cells, std::ostream& out) {
  out << "  " << std::left << std::setw(6) << label << std::right;
  for (uint64_t c : cells) out << std::setw(4) << c;
  out << '\n';
}

void printInstruction(const ref::analysis::InstructionAccess& in, size_t index, std::ostream& out) {
  out << "instruction " << index << " (registers";
  for (uint64_t r : in.registers) out << ' ' << r;
  out << "): " << in.cost.wavefronts << " wavefront" << (in.cost.wavefronts == 1 ? "" : "s") << ", "
      << in.cost.phases << " phase" << (in.cost.phases == 1 ? "" : "s") << " (ideal), "
      << in.cost.wavefronts - in.cost.phases << " conflicts\n";
  std::vector<BankHit> hits = bankHits(in);
  std::vector<uint64_t> lanes, banks, rows, lanesPerBank(32, 0), wordsPerBank(32, 0);
  std::vector<std::set<uint64_t>> words(32);
  for (size_t l = 0; l < hits.size(); ++l) {
    lanes.push_back(l);
    banks.push_back(hits[l].address / 4 % 32);
    rows.push_back(hits[l].address / 128);
    for (uint64_t w = hits[l].address / 4; w < hits[l].address / 4 + hits[l].words; ++w) {
      ++lanesPerBank[w % 32];
      words[w % 32].insert(w);
    }
  }
  for (size_t b = 0; b < 32; ++b) wordsPerBank[b] = words[b].size();
  printRow("lane", lanes, out);
  printRow("bank", banks, out);
  printRow("row", rows, out);
  std::vector<uint64_t> bankIds;
  for (uint64_t b = 0; b < 32; ++b) bankIds.push_back(b);
  printRow("bank", bankIds, out);
  printRow("lanes", lanesPerBank, out);
  printRow("words", wordsPerBank, out);
}

}  // namespace

std::vector<BankHit> bankHits(const ref::analysis::InstructionAccess& in) {
  std::vector<BankHit> hits;
  for (const ref::analysis::LaneAccess& l : in.lanes)
    hits.push_back({l.address, std::max<uint64_t>(1, in.bytes / 4)});
  for (const ref::analysis::MatrixRows& rows : in.matrices)
    for (uint64_t a : rows) hits.push_back({a, 4});
  return hits;
}

BankScope bankScope(const Json& request, uint64_t warp) {
  if (!request.is_object()) throw Error("bank scope: the request must be a JSON object");
  if (request.contains("op") && request["op"] != "bank_conflicts")
    throw Error("bank scope: the request's op must be bank_conflicts, not " + request["op"].dump());
  oracle::Args a(request);
  ref::LinearLayout dist = a.layout("layout");
  auto [shared, padding] = a.paddedLayoutAs<ref::LinearLayout>("shared");
  analysis::AccessSpec access = oracle::bankAccessSpec(a);
  access.padding = padding;
  return {a.name("access"), access.instruction,
          ref::analysis::warpAccesses(dist, shared, access, warp)};
}

void showBanks(const Json& request, uint64_t warp, std::ostream& out) {
  BankScope scope = bankScope(request, warp);
  const std::vector<ref::analysis::InstructionAccess>& all = scope.instructions;
  uint64_t total = 0;
  for (const auto& in : all) total += in.cost.wavefronts;
  out << scope.access << " of " << (all.empty() ? 0 : all[0].bytes) << " bytes per "
      << (scope.instruction == analysis::Instruction::kVector ? "lane" : "row") << ", warp " << warp
      << ": " << all.size() << " instructions, " << total
      << " wavefronts\n"
         "bank = byte address / 4 mod 32 (first bank of the access); row = byte address / 128; "
         "lanes, words: per bank, the lanes touching it and the distinct words they touch\n";
  for (size_t i = 0; i < all.size(); ++i) {
    out << '\n';
    printInstruction(all[i], i, out);
  }
}

void showLayout(const ref::LinearLayout& l, std::ostream& out) {
  const LayoutValue& v = l.value();
  out << "in dims: ";
  for (size_t i = 0; i < v.in_dims.size(); ++i)
    out << (i ? ", " : "") << v.in_dims[i].name << " (2^" << v.in_dims[i].bases.size() << ")";
  out << "\nout dims: ";
  for (size_t i = 0; i < v.out_dims.size(); ++i)
    out << (i ? ", " : "") << v.out_dims[i].name << " (" << v.out_dims[i].size << ")";
  out << "\nrank " << l.rank() << ": " << (l.isInjective() ? "" : "not ") << "injective, "
      << (l.isSurjective() ? "" : "not ") << "surjective\n\n";
  out << "matrix (rows: output bits, columns: input bits)\n";
  printMatrix(l, out);
  printOwnership(l, out);
}

}  // namespace f2lay::tools
