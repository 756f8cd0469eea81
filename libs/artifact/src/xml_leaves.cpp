#include "xml_leaves.h"

#include <expat.h>

namespace dq::artifact {
namespace {

struct State {
  XmlLeaves* out;
  std::string text;
  bool leaf = false;  // the open element has no child element (yet)
};

std::string_view LocalName(const XML_Char* name) {
  std::string_view n(name);
  const size_t colon = n.rfind(':');
  return colon == std::string_view::npos ? n : n.substr(colon + 1);
}

void OnStart(void* user, const XML_Char*, const XML_Char**) {
  auto* s = static_cast<State*>(user);
  s->text.clear();
  s->leaf = true;
}

void OnEnd(void* user, const XML_Char* name) {
  auto* s = static_cast<State*>(user);
  if (s->leaf) s->out->emplace_back(std::string(LocalName(name)), s->text);
  s->leaf = false;
  s->text.clear();
}

void OnText(void* user, const XML_Char* text, int len) {
  auto* s = static_cast<State*>(user);
  if (s->leaf) s->text.append(text, static_cast<size_t>(len));
}

}  // namespace

bool ParseXmlLeaves(std::string_view xml, XmlLeaves* out) {
  out->clear();
  XML_Parser parser = XML_ParserCreate(nullptr);
  if (parser == nullptr) return false;
  State state{out, {}, false};
  XML_SetUserData(parser, &state);
  XML_SetElementHandler(parser, OnStart, OnEnd);
  XML_SetCharacterDataHandler(parser, OnText);
  const bool ok =
      XML_Parse(parser, xml.data(), static_cast<int>(xml.size()), 1) == XML_STATUS_OK;
  XML_ParserFree(parser);
  return ok;
}

std::string FirstLeaf(const XmlLeaves& leaves, std::string_view name) {
  for (const auto& [n, text] : leaves) {
    if (n == name) return text;
  }
  return "";
}

}  // namespace dq::artifact
