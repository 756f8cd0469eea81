// What the channel packs (rules/channel_rules.cpp) look for in listing text and URLs: shouting
// capitals, promotional phrases, gimmicky characters, repeated words, HTML, links, image file
// types and placeholder hosts. Pure functions over string_views; none allocates on a clean value.
//
// The channels' own words are the rules (docs/issue-codes.md cites each page); the thresholds
// here are dq's reading of them, since the channels publish none:
// - capitals: a text "shouts" when at least 80% of the letters of its words of 3+ letters are
//   upper case and at least two of those words have 4+ letters, all upper case. Acronyms and
//   brand names in capitals ("USB-C HDMI Adapter", "IKEA KALLAX Shelf") do not reach it.
// - promotional phrases: kPromotionalPhrases, matched as whole words, ASCII case-insensitively,
//   and a currency sign followed by a digit ("$19.99") in a title.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace dq::validator::listing {

// The text shouts (see above).
bool ExcessiveCapitals(std::string_view text);

// The promotional phrases dq looks for, lower case. The first entries come from the channels'
// own examples ("free shipping", "free delivery", "sale"); the rest are common spellings of the
// same promotions.
extern const std::span<const std::string_view> kPromotionalPhrases;

// The first promotional phrase in text, as written there, or empty. in_title: also a bare "sale"
// and a currency sign before a digit (titles must not carry prices); descriptions may say
// "sale" in other senses ("not for resale" never matches; "for sale" would).
std::string_view PromotionalPhrase(std::string_view text, bool in_title);

// Characters a title uses to draw attention, as bits.
enum Gimmick : uint8_t {
  kExclamation = 1 << 0,     // '!'
  kQuestionMark = 1 << 1,    // '?'
  kAsterisk = 1 << 2,        // '*'
  kRepeatedSymbol = 1 << 3,  // the same symbol twice or more in a row ("$$", "##", "~~")
  kDecorative = 1 << 4,      // emoji, dingbats, arrows, box drawing, geometric shapes
};
struct GimmickFound {
  uint8_t kinds = 0;       // Gimmick bits found
  std::string_view first;  // the first character (UTF-8 sequence) of a kind in `wanted`
};
// The gimmicky characters of text; `first` is the first one whose kind is in wanted.
GimmickFound Gimmicks(std::string_view text, uint8_t wanted);

// A word of 3+ letters (not and, for, the, with) used three times or more, or any word of 2+
// letters twice in a row ("Shoes Shoes"), compared ASCII case-insensitively; the word as first
// written, or empty. Looks at the first 64 words.
std::string_view RepeatedWord(std::string_view text);

// A word of the title that says the item is not new ("refurbished", "renewed", "pre-owned",
// "preowned", "second-hand", "secondhand"; whole words, ASCII case-insensitive): the first word
// of that list found anywhere, at its first place, or empty.
std::string_view UsedWord(std::string_view title);

// HTML in a description.
struct Html {
  std::string_view first_tag;     // the first tag ("<p>"), or empty
  std::string_view first_entity;  // the first character entity ("&amp;"), or empty
  std::string_view unsafe;        // the first tag that carries attributes or that Google calls
                                  // unsafe (script, style, canvas, iframe, object, embed,
                                  // form, input, link, meta), or empty
};
// A tag is '<', an optional '/', a letter, then anything but '<' up to '>'. An entity is '&',
// then letters, or '#' and digits, or '#x' and hex digits, then ';'.
Html FindHtml(std::string_view text);

// The first web address in text ("http://", "https://" or "www." followed by a letter or
// digit), or empty.
std::string_view FindLink(std::string_view text);

// --- Every fact of one text at once -----------------------------------------------------------
//
// A row's title and description are each scanned once for all the facts the selected
// templates' packs ask of them (rules/channel_rules.cpp), instead of once per fact: Scan()
// gives the same answers as the functions above, each fact only when asked for.

enum Fact : uint8_t {
  kCapitalsFact = 1 << 0,     // ExcessiveCapitals
  kPromotionalFact = 1 << 1,  // PromotionalPhrase
  kGimmicksFact = 1 << 2,     // Gimmicks
  kRepeatedFact = 1 << 3,     // RepeatedWord
  kUsedWordFact = 1 << 4,     // UsedWord
  kHtmlFact = 1 << 5,         // FindHtml
  kLinkFact = 1 << 6,         // FindLink
};

struct ScanRequest {
  uint8_t facts = 0;            // Fact bits
  bool in_title = false;        // PromotionalPhrase's in_title
  uint8_t wanted_gimmicks = 0;  // Gimmicks' wanted
};

// The facts of a text; those not asked for are left at their zero value.
struct TextFacts {
  bool capitals = false;
  std::string_view promotional;
  GimmickFound gimmicks;
  std::string_view repeated_word;
  std::string_view used_word;
  Html html;
  std::string_view link;
};

// The facts of text that `request` asks for, in one pass over the text, characters past ASCII
// included (a text holding a UTF-8 sequence that is not well-formed is answered by the
// functions above, one by one).
TextFacts Scan(std::string_view text, const ScanRequest& request);
// The same facts, each from its own function above: what Scan() must answer.
TextFacts ScanEach(std::string_view text, const ScanRequest& request);

// What the last path segment of an http(s) URL says about the file. Query and fragment are
// ignored; an extension is the text after the last '.' of the segment, of 2-5 ASCII letters or
// digits.
enum class FileKind {
  kNoExtension,  // nothing to judge ("/image?id=3", "/GetImage.ashx" is kScript)
  kImage,        // jpg jpeg png gif webp bmp tif tiff (and their case variants)
  kOtherImage,   // an image format no channel here accepts: svg avif heic heif ico jfif psd
  kPage,         // a web page or document: html htm xhtml shtml php pdf txt xml json
  kScript,       // a server script that may well serve an image: asp aspx ashx jsp cgi
  kOther,        // any other extension
};
struct FileType {
  FileKind kind = FileKind::kNoExtension;
  std::string_view extension;  // as written, without the '.'
};
FileType FileTypeOf(std::string_view url);

// FileTypeOf of a URL whose last path segment (as FileTypeOf reads it) is segment.
FileType FileTypeOfSegment(std::string_view segment);

// The host of an http(s) URL (between "://" and the next '/', '?', '#' or ':'), or empty.
std::string_view HostOf(std::string_view url);

// Why a URL cannot be a live product URL, or nullptr: its host is localhost, a loopback or
// private IPv4 address, or a name reserved for documentation and testing (RFC 2606/6761:
// example.com, example.net, example.org, and names under .example, .test, .invalid, .localhost).
const char* PlaceholderHost(std::string_view url);
// PlaceholderHost of a URL whose host (HostOf) is host.
const char* PlaceholderHostName(std::string_view host);

// The last path segment names a placeholder picture ("placeholder.png", "no-image.jpg",
// "noimage.gif", "image-coming-soon.jpg", "image_not_available.png"), compared ASCII
// case-insensitively with '-', '_' and ' ' ignored.
bool PlaceholderImageName(std::string_view url);
// PlaceholderImageName of a URL whose last path segment (UrlParts::segment) is segment.
bool PlaceholderImageSegment(std::string_view segment);

// What the image checks read of a URL, found in one pass instead of one per fact: the same
// views of url as HostOf, and the last path segment as PlaceholderImageName reads it and as
// FileTypeOf does (they differ for a URL without a path: "https://a.com?x" has the segment
// "a.com" and no file).
struct UrlParts {
  std::string_view host;     // HostOf(url)
  std::string_view segment;  // PlaceholderImageName(url) == PlaceholderImageSegment(segment)
  std::string_view file;     // FileTypeOf(url) == FileTypeOfSegment(file)
};
UrlParts SplitUrl(std::string_view url);

}  // namespace dq::validator::listing
