// Oracle ops for slice layouts (Gluon's SliceLayout(dim, parent)) and the two
// family predicates of the paper's §4.2 (Def 4.10, Def 4.14).
#include "oracle/op_table.h"
#include "reference/catalog/predicates.h"
#include "reference/catalog/slice.h"

namespace f2lay::oracle {

namespace {

// The parent's layout at `parentShape`: the parent object is the request of a
// distributed-layout op without "shape" ("op" defaults to "blocked"), answered
// by the oracle itself, so that any family (a slice too) can be a parent.
Layout parentLayout(const Args& a, const ref::catalog::Shape& parentShape) {
  const Json& parent = a.raw("parent");
  if (!parent.is_object())
    throw Error(
        "slice: \"parent\" must be an object: a blocked request's keys without "
        "\"shape\"");
  if (parent.contains("shape"))
    throw Error(
        "slice: \"parent\" must not have a \"shape\": the parent is laid out at the "
        "slice's shape with a 1 inserted at dim");
  if (parent.contains("id")) throw Error("slice: \"parent\" must not have an \"id\"");
  Json request = parent;
  if (!request.contains("op")) request["op"] = "blocked";
  request["shape"] = parentShape;
  Json response = answer(request);
  if (!response["ok"].get<bool>())
    throw Error("slice: parent: " + response["error"].get<std::string>());
  return Layout(layoutFromJson(response["result"], "parent"));
}

}  // namespace

std::vector<Op> sliceOps() {
  return {
      {{"slice",
        {{"dim", "the dim of the parent's tensor that is removed"},
         {"parent",
          "the parent layout: a blocked request's keys without \"shape\" (an \"op\" "
          "other than blocked may be named)"},
         {"shape",
          "the sliced tensor's shape (powers of two); the parent is laid out at it "
          "with a 1 inserted at dim"}},
        "layout",
        "Gluon's SliceLayout(dim, parent) at `shape`: the parent's layout with out dim `dim` "
        "removed and all-zero register bases dropped"},
       [](const Args& a) {
         ref::catalog::Shape shape = a.numbers("shape");
         uint64_t dim = a.number("dim");
         if (dim > shape.size())
           throw Error("slice: dim = " + std::to_string(dim) +
                       " must be at most the rank of the sliced shape (" +
                       std::to_string(shape.size()) + ")");
         auto d = static_cast<unsigned>(dim);
         ref::catalog::checkPowersOfTwo("shape", shape, shape.size());
         return layoutJson(
             ref::catalog::slice(parentLayout(a, ref::catalog::sliceParentShape(shape, d)), d));
       }},
      {{"is_distributed",
        {{"layout", "the layout"}},
        "bool",
        "Def 4.10: surjective, each matrix column at most one non-zero bit, no two non-zero "
        "columns equal"},
       [](const Args& a) { return Json(ref::catalog::isDistributed(a.layout("layout"))); }},
      {{"is_memory",
        {{"layout", "the layout"}},
        "bool",
        "Def 4.14: invertible, each matrix column exactly 1 or 2 non-zero bits"},
       [](const Args& a) { return Json(ref::catalog::isMemory(a.layout("layout"))); }},
  };
}

}  // namespace f2lay::oracle
