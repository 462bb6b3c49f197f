#include "device_tests/conversion_batch.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <random>

#include "analysis/conversion.h"
#include "analysis/swizzle_optimum.h"
#include "formats/error.h"
#include "optimized/opt_linear_layout.h"
#include "oracle/analysis_ops/catalog_pairs.h"
#include "oracle/op_table.h"
#include "properties/case.h"
#include "properties/choices.h"
#include "properties/generators.h"
#include "reference/analysis/bank_conflicts.h"
#include "reference/linear_layout.h"

namespace f2lay::device {

namespace {

uint32_t u32(uint64_t v) { return static_cast<uint32_t>(v); }

int bitsOf(const LayoutValue& l, const char* dim) {
  for (const InDim& d : l.in_dims)
    if (d.name == dim) return static_cast<int>(d.bases.size());
  return 0;
}

// "" when the kernels can run the layout: in dims register, lane, warp and
// an optional block of size 1, in that order; 32 lanes; the limits above.
std::string unsupported(const LayoutValue& l) {
  std::vector<std::string> names;
  for (const InDim& d : l.in_dims) names.push_back(d.name);
  std::vector<std::string> want = {"register", "lane", "warp"};
  if (names.size() == 4 && names[3] == "block" && l.in_dims[3].bases.empty()) names.pop_back();
  if (names != want) return "in dims must be register, lane, warp (and a block of size 1)";
  if (bitsOf(l, "lane") != 5) return "the warp must have 32 lanes";
  if ((1u << bitsOf(l, "warp")) > kMaxWarps)
    return "more than " + std::to_string(kMaxWarps) + " warps";
  if ((1u << bitsOf(l, "register")) > kMaxRegisters)
    return "more than " + std::to_string(kMaxRegisters) + " registers";
  return "";
}

// [warp][lane][register] -> the flat tensor element the layout puts there.
uint64_t appendElements(std::vector<uint32_t>& pool, const LayoutValue& l) {
  uint64_t start = pool.size();
  opt::LinearLayout packed(l);
  int regBits = bitsOf(l, "register");
  for (uint64_t w = 0; w < (uint64_t{1} << bitsOf(l, "warp")); ++w)
    for (uint64_t lane = 0; lane < kLanes; ++lane)
      for (uint64_t r = 0; r < (uint64_t{1} << regBits); ++r)
        pool.push_back(u32(packed.applyFlat(r | lane << regBits | w << (regBits + 5))));
  return start;
}

uint64_t append(std::vector<uint32_t>& pool, const std::vector<uint32_t>& values) {
  uint64_t start = pool.size();
  pool.insert(pool.end(), values.begin(), values.end());
  return start;
}

// Where the kernels read or write element k of a vector: little-endian, as
// the GPU lays out the bytes of one ld/st.
uint64_t readElement(const uint8_t* p, uint64_t bytes) {
  uint64_t v = 0;
  std::memcpy(&v, p, bytes);
  return v;
}

class SeededChoices : public properties::Choices {
 public:
  explicit SeededChoices(uint64_t seed) : rng_(seed) {}
  int inRange(int lo, int hi) override {
    return std::uniform_int_distribution<int>(lo, hi - 1)(rng_);
  }

 private:
  std::mt19937_64 rng_;
};

}  // namespace

SharedSide sharedSide(const ref::LinearLayout& dist, const ref::LinearLayout& shared,
                      const analysis::AccessSpec& access) {
  using analysis::Instruction;
  SharedSide side;
  side.instruction = access.instruction == Instruction::kVector   ? SharedInstruction::kVector
                     : access.instruction == Instruction::kMatrix ? SharedInstruction::kMatrix
                                                                  : SharedInstruction::kMatrixTrans;
  uint64_t warps = uint64_t{1} << bitsOf(dist.value(), "warp");
  for (uint64_t w = 0; w < warps; ++w) {
    std::vector<ref::analysis::InstructionAccess> ins =
        ref::analysis::warpAccesses(dist, shared, access, w);
    if (w == 0) {
      side.instructions = u32(ins.size());
      side.vectorBytes = access.instruction == Instruction::kVector
                             ? u32(ins.at(0).bytes)
                             : u32(4 * ins.at(0).matrices.size());
      for (const auto& in : ins)
        for (uint64_t r : in.registers) side.registers.push_back(u32(r));
    }
    for (const auto& in : ins) {
      if (access.instruction == Instruction::kVector) {
        for (const ref::analysis::LaneAccess& lane : in.lanes)
          side.addresses.push_back(u32(lane.address));
        continue;
      }
      for (uint32_t lane = 0; lane < kLanes; ++lane) {
        size_t matrix = lane / 8 < in.matrices.size() ? lane / 8 : 0;
        side.addresses.push_back(u32(in.matrices[matrix][lane % 8]));
      }
    }
  }
  opt::analysis::BankPath path;
  side.predicted = opt::analysis::bankConflictsWithPath(
      opt::LinearLayout(dist.value()), opt::LinearLayout(shared.value()), access, path);
  side.lemma94Exact = path == opt::analysis::BankPath::kRank;
  return side;
}

void addCase(Batch& batch, const std::string& name, const LayoutValue& a, const LayoutValue& b,
             uint64_t elementBytes, uint64_t seed, analysis::Instruction write,
             analysis::Instruction read) {
  for (const LayoutValue* l : {&a, &b})
    if (std::string why = unsupported(*l); !why.empty()) {
      batch.skipped.push_back(name + ": " + why);
      return;
    }
  ConversionCase c{name, a, b, elementBytes, "", "", {}, {}};
  DeviceCase d{};
  std::vector<uint32_t>& pool = batch.pool;
  const ref::LinearLayout refA(a), refB(b);
  const opt::LinearLayout optA(a), optB(b);
  try {
    c.kind = analysis::toString(analysis::classifyConversion(optA, optB).kind);
    analysis::SwizzleOptimum optimum =
        analysis::swizzleOptimum(refA, refB, elementBytes, {write, read});
    // Each side at the optimum's width for it; ldmatrix/stmatrix move
    // 16-byte rows.
    auto access = [&](analysis::AccessKind kind, analysis::Instruction i, uint64_t bytes) {
      std::optional<uint64_t> width;
      if (i == analysis::Instruction::kVector) width = bytes;
      return analysis::AccessSpec{kind, elementBytes, width, i, {}};
    };
    c.store = sharedSide(refA, optimum.shared,
                         access(analysis::AccessKind::kStore, write, optimum.store.vectorBytes));
    c.load = sharedSide(refB, optimum.shared,
                        access(analysis::AccessKind::kLoad, read, optimum.load.vectorBytes));
  } catch (const Error& e) {
    batch.skipped.push_back(name + ": " + e.what());
    return;
  }
  int tensorBits = 0;
  for (const OutDim& o : a.out_dims) tensorBits += std::countr_zero(o.size);
  d.warps = 1u << bitsOf(a, "warp");
  d.elementBytes = u32(elementBytes);
  d.aRegisters = 1u << bitsOf(a, "register");
  d.bRegisters = 1u << bitsOf(b, "register");
  d.aElements = appendElements(pool, a);
  d.bElements = appendElements(pool, b);
  d.sharedBytes = u32(elementBytes << tensorBits);
  batch.maxSharedBytes = std::max(batch.maxSharedBytes, d.sharedBytes);

  // A random tensor; no element equals the poison, so an output never
  // written cannot pass.
  d.input = batch.input.size();
  std::mt19937_64 rng(seed);
  uint64_t poison = readElement(std::vector<uint8_t>(8, kPoison).data(), elementBytes);
  for (uint64_t e = 0; e < uint64_t{1} << tensorBits; ++e) {
    uint64_t v;
    do v = rng() & (elementBytes == 8 ? ~uint64_t{0} : (uint64_t{1} << 8 * elementBytes) - 1);
    while (v == poison);
    for (uint64_t k = 0; k < elementBytes; ++k) batch.input.push_back(uint8_t(v >> 8 * k));
  }
  while (batch.input.size() % 16) batch.input.push_back(0);
  d.output = batch.outputBytes;
  batch.outputBytes += uint64_t{d.warps} * kLanes * d.bRegisters * elementBytes;

  d.storeKind = c.store.instruction;
  d.loadKind = c.load.instruction;
  d.storeVector = c.store.vectorBytes;
  d.storeInstructions = c.store.instructions;
  d.storeRegisters = append(pool, c.store.registers);
  d.storeAddresses = append(pool, c.store.addresses);
  d.loadVector = c.load.vectorBytes;
  d.loadInstructions = c.load.instructions;
  d.loadRegisters = append(pool, c.load.registers);
  d.loadAddresses = append(pool, c.load.addresses);
  // B's registers with zero bases hold copies; the loads skip them
  // (bank_conflicts.h), so they are filled from the register with those
  // bits clear.
  uint32_t zero = 0;
  for (size_t j = 0; j < b.in_dims[0].bases.size(); ++j)
    if (std::all_of(b.in_dims[0].bases[j].begin(), b.in_dims[0].bases[j].end(),
                    [](uint64_t v) { return v == 0; }))
      zero |= 1u << j;
  std::vector<uint32_t> copies;
  for (uint32_t r = 0; r < d.bRegisters; ++r)
    if (r & zero) copies.insert(copies.end(), {r, r & ~zero});
  d.sharedCopies = append(pool, copies);
  d.sharedCopyCount = u32(copies.size() / 2);

  if (c.kind == "shared_memory") {
    c.noShuffle = "the data crosses warps";
  } else {
    try {
      analysis::ShufflePlan plan = analysis::shufflePlan(optA, optB, elementBytes);
      std::vector<uint32_t> steps, send, recv, planCopies;
      for (const auto& round : plan.rounds)
        for (const analysis::ShuffleStep& s : round)
          steps.insert(steps.end(), {u32(s.sendRegister), s.srcLane, u32(s.recvRegister)});
      for (uint64_t k = 0; k < plan.vectorElements; ++k) {
        send.push_back(u32(plan.sendOffsets.at(k)));
        recv.push_back(u32(plan.recvOffsets.at(k)));
      }
      for (const analysis::RegisterCopy& rc : plan.copies)
        planCopies.insert(planCopies.end(), {u32(rc.dstRegister), u32(rc.srcRegister)});
      d.hasShuffle = 1;
      d.rounds = u32(plan.rounds.size());
      d.vectorElements = u32(plan.vectorElements);
      d.steps = append(pool, steps);
      d.sendOffsets = append(pool, send);
      d.recvOffsets = append(pool, recv);
      d.shuffleCopies = append(pool, planCopies);
      d.shuffleCopyCount = u32(plan.copies.size());
    } catch (const Error& e) {
      c.noShuffle = e.what();
    }
  }
  batch.cases.push_back(std::move(c));
  batch.device.push_back(d);
}

void addRandomPairs(Batch& batch, int count, uint64_t seed) {
  SeededChoices choices(seed);
  for (int i = 0; i < count; ++i) {
    properties::Case c = properties::makeConversionPair(choices);
    addCase(batch, "random pair " + std::to_string(i), c.layouts[0], c.layouts[1],
            c.params["element_bytes"].get<uint64_t>(), seed + 1 + i, analysis::Instruction::kVector,
            analysis::Instruction::kVector);
  }
}

void addCatalogPairs(Batch& batch) {
  uint64_t seed = 1000000;
  for (const oracle::CatalogPair& p : oracle::catalogPairs())
    addCase(batch, p.name, p.a.value(), p.b.value(), p.elementBytes, seed++, p.write, p.read);
}

// The program of conversion_kernels.cu, one thread at a time; the same
// tables, read the same way.
std::vector<uint8_t> replayOnHost(const Batch& batch, Path path) {
  std::vector<uint8_t> out(batch.outputBytes, kPoison);
  const std::vector<uint32_t>& pool = batch.pool;
  for (const DeviceCase& c : batch.device) {
    const uint64_t eb = c.elementBytes;
    auto slot = [&](uint32_t w, uint32_t l, uint32_t r) {
      return &out[c.output + ((uint64_t{w} * kLanes + l) * c.bRegisters + r) * eb];
    };
    auto element = [&](uint32_t w, uint32_t l, uint32_t r) {
      return &batch.input[c.input + pool[c.aElements + (w * kLanes + l) * c.aRegisters + r] * eb];
    };
    if (path == Path::kShared) {
      // Where element k of lane l's vector lies: ld/st.shared, the next
      // element; ldmatrix/stmatrix, the ownership of
      // device_tests/HARDWARE.md#matrix-ownership (register k / 2 of lane l
      // is matrix k / 2; not transposed: its row l / 4, columns
      // 2 (l % 4) + half; .trans: its row 2 (l % 4) + half, column l / 4),
      // the rows' addresses given by lanes 8 matrix + row.
      auto at = [&](SharedInstruction kind, uint64_t table, uint32_t instructions, uint32_t w,
                    uint32_t i, uint32_t l, uint32_t k) -> uint64_t {
        const uint32_t* lanes = &pool[table + (uint64_t{w} * instructions + i) * kLanes];
        if (kind == SharedInstruction::kVector) return lanes[l] + k * eb;
        uint32_t matrix = k / 2, half = k % 2;
        if (kind == SharedInstruction::kMatrix)
          return lanes[8 * matrix + l / 4] + 2 * (2 * (l % 4) + half);
        return lanes[8 * matrix + 2 * (l % 4) + half] + 2 * (l / 4);
      };
      std::vector<uint8_t> shared(c.sharedBytes, kPoison);
      for (uint32_t w = 0; w < c.warps; ++w)
        for (uint32_t l = 0; l < kLanes; ++l)
          for (uint32_t i = 0; i < c.storeInstructions; ++i) {
            uint32_t n = c.storeVector / c.elementBytes;
            for (uint32_t k = 0; k < n; ++k)
              std::memcpy(
                  &shared.at(at(c.storeKind, c.storeAddresses, c.storeInstructions, w, i, l, k)),
                  element(w, l, pool[c.storeRegisters + i * n + k]), eb);
          }
      for (uint32_t w = 0; w < c.warps; ++w)
        for (uint32_t l = 0; l < kLanes; ++l) {
          for (uint32_t i = 0; i < c.loadInstructions; ++i) {
            uint32_t n = c.loadVector / c.elementBytes;
            for (uint32_t k = 0; k < n; ++k)
              std::memcpy(
                  slot(w, l, pool[c.loadRegisters + i * n + k]),
                  &shared.at(at(c.loadKind, c.loadAddresses, c.loadInstructions, w, i, l, k)), eb);
          }
          for (uint32_t k = 0; k < c.sharedCopyCount; ++k)
            std::memcpy(slot(w, l, pool[c.sharedCopies + 2 * k]),
                        slot(w, l, pool[c.sharedCopies + 2 * k + 1]), eb);
        }
      continue;
    }
    if (!c.hasShuffle) continue;
    for (uint32_t w = 0; w < c.warps; ++w) {
      for (uint32_t i = 0; i < c.rounds; ++i)
        for (uint32_t l = 0; l < kLanes; ++l) {
          const uint32_t* step = &pool[c.steps + (uint64_t{i} * kLanes + l) * 3];
          uint32_t srcLane = step[1];
          uint32_t send = pool[c.steps + (uint64_t{i} * kLanes + srcLane) * 3];  // its operand
          for (uint32_t k = 0; k < c.vectorElements; ++k)
            std::memcpy(slot(w, l, step[2] ^ pool[c.recvOffsets + k]),
                        element(w, srcLane, send ^ pool[c.sendOffsets + k]), eb);
        }
      for (uint32_t l = 0; l < kLanes; ++l)
        for (uint32_t k = 0; k < c.shuffleCopyCount; ++k)
          std::memcpy(slot(w, l, pool[c.shuffleCopies + 2 * k]),
                      slot(w, l, pool[c.shuffleCopies + 2 * k + 1]), eb);
    }
  }
  return out;
}

std::vector<std::string> checkOutputs(const Batch& batch, Path path,
                                      const std::vector<uint8_t>& output, uint64_t& checked) {
  std::vector<std::string> wrong;
  uint64_t wrongCount = 0;
  checked = 0;
  if (output.size() != batch.outputBytes) return {"the output has the wrong size"};
  for (size_t i = 0; i < batch.device.size(); ++i) {
    const DeviceCase& c = batch.device[i];
    if (path == Path::kShuffle && !c.hasShuffle) continue;
    opt::LinearLayout b(batch.cases[i].b);
    const uint64_t eb = c.elementBytes;
    int regBits = std::countr_zero(c.bRegisters);
    for (uint64_t w = 0; w < c.warps; ++w)
      for (uint64_t l = 0; l < kLanes; ++l)
        for (uint64_t r = 0; r < c.bRegisters; ++r, ++checked) {
          uint64_t element = b.applyFlat(r | l << regBits | w << (regBits + 5));
          uint64_t got =
              readElement(&output[c.output + ((w * kLanes + l) * c.bRegisters + r) * eb], eb);
          uint64_t want = readElement(&batch.input[c.input + element * eb], eb);
          if (got != want && ++wrongCount <= 5)
            wrong.push_back(batch.cases[i].name + ": warp " + std::to_string(w) + " lane " +
                            std::to_string(l) + " register " + std::to_string(r) + " holds " +
                            std::to_string(got) + ", element " + std::to_string(element) + " is " +
                            std::to_string(want));
        }
  }
  if (wrongCount > 5) wrong.push_back(std::to_string(wrongCount) + " locations wrong in all");
  return wrong;
}

}  // namespace f2lay::device
