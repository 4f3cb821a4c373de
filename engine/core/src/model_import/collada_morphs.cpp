#include "collada_morphs.h"

#include <algorithm>
#include <map>
#include <pugixml.hpp>
#include <set>
#include <sstream>

namespace riglens::core {
namespace {

struct Morph {
  std::string base;  // the geometry (or controller) it morphs
  std::string name;
  unsigned long long targets = 0;
};
using Morphs = std::map<std::string, Morph, std::less<>>;

// "#id" -> "id"; anything else (an external URL) -> "".
std::string_view localId(std::string_view url) {
  return !url.empty() && url[0] == '#' ? url.substr(1) : std::string_view{};
}

// Every <controller> holding a <morph>, by id.
Morphs morphControllers(const pugi::xml_node& collada) {
  Morphs out;
  for (pugi::xml_node library : collada.children("library_controllers"))
    for (pugi::xml_node controller : library.children("controller")) {
      const pugi::xml_node morph = controller.child("morph");
      const std::string_view base = localId(morph.attribute("source").as_string());
      const std::string id = controller.attribute("id").as_string();
      if (!morph || base.empty() || id.empty()) continue;
      Morph m{std::string(base), controller.attribute("name").as_string(id.c_str()), 0};
      for (pugi::xml_node source : morph.children("source"))
        if (pugi::xml_node ids = source.child("IDREF_array"))
          m.targets = std::max(m.targets, ids.attribute("count").as_ullong());
      out.emplace(id, std::move(m));
    }
  return out;
}

// A morph's base mesh, followed through morphs of morphs (as many steps as
// there are morphs at most: a cycle ends there).
std::string baseMesh(const Morphs& morphs, std::string id) {
  for (std::size_t step = 0; step <= morphs.size(); ++step) {
    const auto it = morphs.find(id);
    if (it == morphs.end()) return id;
    id = it->second.base;
  }
  return id;
}

// Points every use of a morph controller at its base mesh. pugixml's tree
// walk is iterative: a deeply nested file costs no stack.
class MorphUses : public pugi::xml_tree_walker {
 public:
  explicit MorphUses(const Morphs& morphs) : m_morphs(morphs) {}
  bool for_each(pugi::xml_node& node) override {
    const std::string_view name = node.name();
    if (name == "instance_controller") retarget(node, "url", true);
    if (name == "skin") retarget(node, "source", false);
    return true;
  }
  const std::set<std::string>& used() const { return m_used; }

 private:
  void retarget(pugi::xml_node& node, const char* attribute, bool instance) {
    pugi::xml_attribute a = node.attribute(attribute);
    const std::string_view id = localId(a.as_string());
    if (id.empty() || m_morphs.find(id) == m_morphs.end()) return;
    const std::string base = baseMesh(m_morphs, std::string(id));
    m_used.insert(std::string(id));
    a.set_value(("#" + base).c_str());
    if (!instance) return;
    // A geometry instance has no skeleton; its material bindings stay.
    node.set_name("instance_geometry");
    while (pugi::xml_node skeleton = node.child("skeleton")) node.remove_child(skeleton);
  }

  const Morphs& m_morphs;
  std::set<std::string> m_used;
};

}  // namespace

std::optional<ColladaMorphBypass> bypassColladaMorphs(std::string_view text) {
  pugi::xml_document doc;
  if (!doc.load_buffer(text.data(), text.size())) return std::nullopt;
  const pugi::xml_node collada = doc.child("COLLADA");
  const Morphs morphs = morphControllers(collada);
  if (morphs.empty()) return std::nullopt;
  MorphUses uses(morphs);
  doc.traverse(uses);
  // Every morph controller goes, used or not: Assimp's loader resolves each
  // controller's mesh id for every mesh it builds, and a morph's never resolves.
  for (pugi::xml_node library : collada.children("library_controllers"))
    for (pugi::xml_node controller = library.child("controller"); controller;) {
      const pugi::xml_node next = controller.next_sibling("controller");
      if (morphs.count(controller.attribute("id").as_string())) library.remove_child(controller);
      controller = next;
    }
  ColladaMorphBypass out;
  for (const auto& [id, m] : morphs) {
    out.notes.push_back("the shape keys of '" + m.name + "' (a COLLADA morph controller, " + std::to_string(m.targets) +
                        " target(s)) are not read: Debian's Assimp 5.2.5 cannot read morph controllers and would "
                        "refuse the file or drop the mesh; " +
                        (uses.used().count(id) ? "its base mesh is shown" : "nothing in the scene used it"));
  }
  std::ostringstream written;
  doc.save(written, "", pugi::format_raw);
  out.document = std::move(written).str();
  return out;
}

}  // namespace riglens::core
