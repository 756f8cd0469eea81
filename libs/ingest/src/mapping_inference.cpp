#include "dq/ingest/mapping_inference.h"

#include <cmath>
#include <limits>
#include <optional>

#include "dq/common/vocabulary.h"
#include "dq/common/ascii.h"
#include "dq/ingest/source_profile.h"

namespace dq::ingest {
namespace {

// One row per standard field, in kStandardFields order. Ranked: a better match comes first.
// Sources: Shopify product/customer/inventory CSV, WooCommerce product and customer exports,
// Google Merchant Center / Meta catalog feed attributes, Amazon/eBay/Etsy/Shopee/Lazada style
// templates, and gen_catalog.py's PRODUCT_COLUMNS / CUSTOMER_COLUMNS.
const FieldAliases kTable[] = {
    {"sku", {"Variant SKU", "SKU", "item_sku", "seller_sku", "Custom label (SKU)", "Custom label",
             "Product SKU", "Parent SKU", "Article Number", "Item Number", "id", "offer_id",
             "Product ID", "item_id", "retailer_id",
          "REF", "Referência", "Referencia", "Référence", "Reference #", "Reference",
          "Product Code/SKU", "UGS", "Código", "Codigo", "Artikelnummer", "Art.-Nr.",
          "Codice articolo", "Codice", "Artikelcode", "Código do produto"}},
    {"title", {"Title", "Name", "Product Name", "item_name", "product_title", "Product Title",
               "Item Title", "name_en",
          "Nome", "Nombre", "Nom", "Naam", "Titel", "Titre", "Titolo", "Título", "Produktname",
          "Nome do produto", "Nombre del producto", "Nom du produit", "Nome prodotto",
          "Productnaam", "Name *"}},
    {"description", {"Body (HTML)", "Description", "product_description", "Body HTML", "Body",
                     "Long Description", "Product Description", "Item Description",
                     "Short description",
          "Descrição", "Descripción", "Beschreibung", "Descrizione", "Beschrijving",
          "Omschrijving", "Produktbeschreibung"}},
    {"price", {"Variant Price", "Price", "Regular price", "standard_price", "Start price",
               "Unit Price", "Selling Price", "price_amount", "Retail Price",
          "Price tax excluded", "Preço", "Preço normal", "Preço de venda", "Precio",
          "Precio normal", "Precio de venta", "Preis", "Regulärer Preis", "Verkaufspreis", "Prix",
          "Tarif régulier", "Prix de vente", "Prezzo", "Prezzo di listino", "Prezzo di vendita",
          "Prijs", "Reguliere prijs", "Verkoopprijs"}},
    {"compare_at_price", {"Variant Compare At Price", "Compare At Price", "Compare-at price",
                          "list_price", "msrp", "Original Price", "RRP", "Was Price",
          "msrp_price", "UVP", "Prix barré", "Preço original", "Precio original",
          "Prezzo originale", "Adviesprijs"}},
    {"cost_price", {"Cost per item", "Cost", "Cost Price", "cost_of_goods_sold", "Unit Cost",
                    "Purchase Price", "wholesale_price", "cogs",
          "Wholesale price", "Custo", "Preço de custo", "Coste", "Costo", "Precio de coste",
          "Einkaufspreis", "Prix d'achat", "Prezzo d'acquisto", "Inkoopprijs"}},
    {"currency", {"Currency", "currency_code", "Price Currency", "Currency Code",
          "Moeda", "Moneda", "Währung", "Devise", "Valuta"}},
    {"availability", {"Availability", "In stock?", "stock_status", "Stock Status",
                      "availability_status", "Inventory Status",
          "Em estoque?", "¿En inventario?", "En stock ?", "Vorrätig?", "In magazzino?",
          "Op voorraad?", "Disponibilidade", "Disponibilidad", "Verfügbarkeit", "Disponibilité",
          "Disponibilità", "Beschikbaarheid"}},
    {"image_url", {"Image Src", "image_link", "Image URL", "Images", "main_image_url",
                   "Image", "Item photo URL", "PicURL", "Cover image", "Image 1", "image1",
                   "Main Image", "Photo URL", "Variant Image",
          "Image URLs (x,y,z...)", "Image URL (Import)", "Product Image URL - 1", "base_image",
          "Imagens", "Imagem", "Imágenes", "Imagen", "Bilder", "Bild", "Immagini", "Immagine",
          "Afbeeldingen", "Afbeelding", "URL da imagem", "URL de la imagen", "Bild-URL",
          "URL de l'image"}},
    {"brand", {"Vendor", "Brand", "brand_name", "Brands", "Manufacturer", "C:Brand",
          "Marca", "Marke", "Marque", "Merk", "Hersteller", "Fabricante", "Fabricant",
          "Produttore", "Fabrikant", "Brand Name"}},
    {"category", {"Category", "Product Category", "Categories", "fb_product_category",
                  "Category Path", "item_type", "Type",
          "Categories (x,y,z...)", "product_category_name", "Categoria", "Categorias",
          "Categoría", "Categorías", "Kategorie", "Kategorien", "Catégorie", "Catégories",
          "Categorie", "Categorieën"}},
    {"gtin", {"Variant Barcode", "GTIN", "Barcode", "EAN", "UPC", "GTIN, UPC, EAN, or ISBN",
              "external_product_id", "ean13", "isbn", "jan", "Product ID Type Value",
          "Product UPC/EAN", "UPC/EAN", "Código de barras", "Codigo de barras", "Strichcode",
          "Code-barres", "Codice a barre", "Streepjescode", "GTIN-13"}},
    {"weight", {"Variant Grams", "Weight", "Weight (kg)", "Weight (g)", "Weight (lbs)",
                "Weight (lb)", "Weight (oz)", "Weight (grams)", "Weight (kgs)",
                "shipping_weight", "item_weight", "product_weight", "Variant Weight",
                "package_weight", "Grams",
          "product_weight_g", "Product Weight", "Peso", "Gewicht", "Poids", "Peso (kg)",
          "Peso (g)", "Peso (lbs)", "Gewicht (kg)", "Gewicht (g)", "Poids (kg)", "Poids (g)",
          "Gewicht (lbs)", "weight_kg", "weight_g"}},
    {"hs_code", {"HS Code", "Variant HS Code", "Harmonized System Code", "hs_tariff_code",
                 "HS Tariff Number", "tariff_code", "commodity_code", "Customs Tariff Number",
          "Zolltarifnummer", "Code SH", "Codice doganale", "Código HS"}},
    {"country_of_origin", {"Country of Origin", "Variant Country of Origin",
                           "Country/Region of Origin", "origin_country", "Origin",
                           "Made In", "Country of Manufacture", "coo",
          "country_of_manufacture", "País de origem", "País de origen", "Herkunftsland",
          "Pays d'origine", "Paese di origine", "Land van herkomst"}},
    {"vat_number", {"VAT Number", "Supplier VAT", "VAT ID", "VAT", "vat_id", "Tax ID",
                    "VAT Registration Number", "tax_number"}},
    {"email", {"Email", "E-mail", "Email Address", "customer_email", "billing_email",
               "Contact Email", "mail",
          "Email *", "Correo electrónico", "Correo", "E-Mail-Adresse", "Adresse e-mail",
          "Courriel", "Indirizzo email", "E-mailadres"}},
    {"phone", {"Phone", "Phone Number", "Telephone", "Mobile", "billing_phone",
               "Default Address Phone", "Contact Phone", "Mobile Phone", "tel",
          "telephone", "Telefone", "Teléfono", "Telefon", "Téléphone", "Telefono", "Telefoon",
          "Telefoonnummer", "Celular", "Handy"}},
    {"country", {"Country", "Country Code", "billing_country", "Default Address Country Code",
                 "Shipping Country", "country_code", "Customer Country",
          "country_id", "País", "Land", "Pays", "Paese"}},
    {"stock_qty", {"Variant Inventory Qty", "Stock", "Quantity", "Qty", "Inventory",
                   "Stock Quantity", "Inventory Quantity", "quantity_to_sell_on_facebook",
                   "Available", "On Hand", "Available Quantity", "stock_qty_available",
          "Current Stock", "Current Stock Level", "Estoque", "Quantidade", "Existencias",
          "Inventario", "Cantidad", "Lagerbestand", "Bestand", "Menge", "Quantité", "Magazzino",
          "Quantità", "Voorraad", "Aantal"}},
    {"reorder_point", {"Reorder Point", "Reorder Level", "Low stock amount", "Min Stock",
                       "Safety Stock", "Minimum Stock", "reorder_threshold",
          "Low stock level", "Estoque mínimo", "Stock mínimo", "Mindestbestand", "Stock minimum",
          "Scorta minima", "Minimale voorraad"}},
    {"expiry_date", {"Expiry Date", "Best Before", "Expiration Date", "Best Before Date",
                     "Use By", "exp_date", "bbd", "Shelf Life End",
          "Validade", "Data de validade", "Fecha de caducidad", "Mindesthaltbarkeitsdatum", "MHD",
          "Date de péremption", "DLUO", "Data di scadenza", "Houdbaarheidsdatum", "THT"}},
    {"warehouse_id", {"Location", "Warehouse", "Warehouse ID", "Warehouse Code",
                      "Location ID", "Inventory Location", "Fulfillment Center ID",
                      "fulfillment_center", "Bin Location", "Store ID",
          "Armazém", "Almacén", "Lagerort", "Entrepôt", "Magazijn"}},
    {"declared_value", {"Declared Value", "Customs Value", "Customs Declared Value",
                        "customs_value", "Value for Customs", "Declared Customs Value"}},

    // --- Channel attributes (issue 32, branch channels): Google's product data specification
    // names match as the standard names themselves (support.google.com/merchants/answer/7052112,
    // also Meta's catalog field names); the aliases are common other spellings. product_type
    // and google_product_category used to be aliases of category; they are fields of their own.
    {"link", {"Product URL", "product_link", "url", "Product Page URL", "landing_page",
              "Permalink"}},
    {"condition", {"item_condition", "Product Condition"}},
    {"identifier_exists", {}},
    {"mpn", {"Manufacturer Part Number", "Part Number", "mfr_part_number"}},
    {"google_product_category", {"google_category", "gpc"}},
    {"product_type", {"product_type_path"}},
    {"item_group_id", {"item_group", "group_id", "variant_group_id"}},
    {"color", {"Colour", "Variant Color", "Option Color"}},
    {"size", {"Variant Size", "Option Size"}},
    {"gender", {"Sex", "Target Gender"}},
    {"age_group", {"Target Age Group"}},
    {"sale_price", {"special_price", "Discount Price", "Offer Price"}},
    {"sale_price_effective_date", {"sale_dates", "Sale Effective Date"}},
    {"availability_date", {"preorder_date", "Available From", "Restock Date"}},
    {"additional_image_link", {"additional_image_links", "Additional Images", "Gallery Images",
                               "other_image_url"}},

    // --- The unit of a row's weight, in a column of its own (issue 31): Shopify Transporter's
    // "Variant Weight Unit" beside "Variant Weight", and generic exports' weight + weight_unit.
    // Not Shopify's "Weight unit for display": its weight column is in grams whatever it says.
    {"weight_unit", {"Variant Weight Unit", "Weight Unit", "Weight Units", "Weight UOM",
                     "Weight Unit of Measure", "Unit of Weight", "shipping_weight_unit",
                     "item_weight_unit", "product_weight_unit", "package_weight_unit",
          "Unidade de peso", "Unidad de peso", "Gewichtseinheit", "Einheit Gewicht",
          "Unité de poids", "Unità di peso", "Unità peso", "Gewichtseenheid"}},
};
static_assert(std::size(kTable) == kStandardFields.size());

}  // namespace

std::span<const FieldAliases> AliasTable() { return kTable; }

std::string NormalizeColumnName(std::string_view name) {
  while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.remove_prefix(1);
  if (name.size() > 2 && (name[0] == 'g' || name[0] == 'G') && name[1] == ':') {
    name.remove_prefix(2);
  }
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') {
      out.push_back(static_cast<char>(c - 'A' + 'a'));
    } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               static_cast<unsigned char>(c) >= 0x80) {
      out.push_back(c);
    }
  }
  return out;
}

namespace {

// A nested JSON member's column ("meta.barcode", json_reader.h) also answers to its last key:
// the normalised last key, or "" when the name is not such a path (every key letters, digits,
// '_' or '-', none empty). So "Price (incl. VAT)" is not one.
std::string NormalizedLeaf(std::string_view name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return {};
  bool empty_key = true;
  for (char c : name) {
    if (c == '.') {
      if (empty_key) return {};
      empty_key = true;
      continue;
    }
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-';
    if (!word) return {};
    empty_key = false;
  }
  if (empty_key) return {};
  return NormalizeColumnName(name.substr(dot + 1));
}

// Ranks of a whole-name match are below this; a match on a path's last key ranks after all of
// them, so a column named for the field anywhere in the file wins over a nested member.
constexpr size_t kLeafRank = 1000;

}  // namespace

namespace {

// The words of a header, lower-cased: "Weight (kg)" -> {"weight", "kg"}.
std::vector<std::string> Words(std::string_view column) {
  std::vector<std::string> words(1);
  for (char c : column) {
    c = absl::ascii_tolower(static_cast<unsigned char>(c));
    if (absl::ascii_isalnum(static_cast<unsigned char>(c))) {
      words.back().push_back(c);
    } else if (!words.back().empty()) {
      words.emplace_back();
    }
  }
  if (words.back().empty()) words.pop_back();
  return words;
}

bool IsWeightWord(std::string_view w) {
  return w == "weight" || w == "weights" || w == "mass" || w == "gewicht" || w == "poids" ||
         w == "peso";
}

// Words that may stand beside "weight" in a header without naming a unit.
bool IsQualifier(std::string_view w) {
  for (std::string_view q : {"item", "items", "product", "variant", "shipping", "package",
                             "parcel", "net", "gross", "unit", "total", "in", "per", "the"}) {
    if (w == q) return true;
  }
  return false;
}

}  // namespace

std::string WeightUnitOfColumn(std::string_view column) {
  std::string unit;  // the last unit named wins ("Weight kg (lbs)" is nonsense anyway)
  for (const std::string& w : Words(column)) {
    if (w == "kg" || w == "kgs" || w == "kilo" || w == "kilos" || w == "kilogram" ||
        w == "kilograms") {
      unit = "kg";
    } else if (w == "lb" || w == "lbs" || w == "pound" || w == "pounds") {
      unit = "lb";
    } else if (w == "oz" || w == "ounce" || w == "ounces") {
      unit = "oz";
    } else if (w == "g" || w == "gr" || w == "gram" || w == "grams") {
      unit = "g";
    }
  }
  return unit;
}

namespace {

// A weight_unit column is the unit of the row's weight only when the weight column's header
// names none: "Variant Grams" is in grams whatever Shopify's "Variant Weight Unit" says (Shopify
// writes grams there and keeps the unit for display), and "Weight (kg)" is in kilograms. Without
// a weight column it has nothing to give a unit to. Index of the weight_unit pair to drop, or
// npos.
size_t UnusedWeightUnit(std::span<const std::pair<std::string, std::string>> mapping) {
  size_t unit = std::string::npos;
  const std::string* weight = nullptr;
  for (size_t i = 0; i < mapping.size(); ++i) {
    if (mapping[i].first == "weight_unit") unit = i;
    if (mapping[i].first == "weight") weight = &mapping[i].second;
  }
  if (unit == std::string::npos) return unit;
  return weight == nullptr || !WeightUnitOfColumn(*weight).empty() ? unit : std::string::npos;
}

bool IsWeightUnitAlias(std::string_view column) {
  const std::string n = NormalizeColumnName(column);
  if (n == NormalizeColumnName("weight_unit")) return true;
  for (std::string_view alias : kTable[*IndexOf(kStandardFields, "weight_unit")].aliases) {
    if (n == NormalizeColumnName(alias)) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> MappingNotes(
    std::span<const std::string> header,
    std::span<const std::pair<std::string, std::string>> mapping) {
  std::vector<std::string> notes;
  for (const std::string& column : header) {
    bool mapped = false;
    const std::string* weight_column = nullptr;
    for (const auto& m : mapping) {
      mapped = mapped || m.second == column;
      if (m.first == "weight") weight_column = &m.second;
    }
    if (mapped) continue;
    if (weight_column != nullptr && IsWeightUnitAlias(column)) {
      if (const std::string unit = WeightUnitOfColumn(*weight_column); !unit.empty()) {
        notes.push_back("Column '" + column + "' was not read as the unit of the weights: the "
                        "weight column '" + *weight_column + "' names its own unit (" + unit +
                        ") in its header.");
      }
      continue;
    }
    const std::vector<std::string> words = Words(column);
    bool weight = false;
    std::string unit;
    for (const std::string& w : words) {
      if (IsWeightWord(w)) {
        weight = true;
      } else if (!IsQualifier(w) && unit.empty()) {
        unit = w;
      }
    }
    if (!weight || unit.empty() || !WeightUnitOfColumn(column).empty()) continue;
    notes.push_back("Column '" + column + "' looks like a weight in '" + unit +
                    "', a unit dq does not convert to grams (it converts g, kg, lb and oz), so "
                    "it was not mapped to weight. Convert the column to grams, or map it "
                    "yourself if its values carry their own units.");
  }
  return notes;
}

std::vector<std::pair<std::string, std::string>> InferMapping(
    std::span<const std::string> header) {
  std::vector<std::string> normalized, leaf;
  normalized.reserve(header.size());
  for (const std::string& h : header) {
    normalized.push_back(NormalizeColumnName(h));
    leaf.push_back(NormalizedLeaf(h));
  }

  std::vector<std::pair<std::string, std::string>> out;
  std::vector<bool> taken(header.size(), false);
  for (size_t f = 0; f < kStandardFields.size(); ++f) {
    const FieldAliases& row = kTable[f];
    size_t best_rank = std::numeric_limits<size_t>::max();
    size_t best_col = 0;
    for (size_t col = 0; col < header.size(); ++col) {
      if (taken[col] || normalized[col].empty()) continue;
      size_t rank = 0;
      bool hit = normalized[col] == NormalizeColumnName(row.field);
      if (!hit) {
        for (std::string_view alias : row.aliases) {
          ++rank;
          if (normalized[col] == NormalizeColumnName(alias)) {
            hit = true;
            break;
          }
        }
      }
      if (!hit && !leaf[col].empty()) {
        rank = kLeafRank;
        hit = leaf[col] == NormalizeColumnName(row.field);
        for (auto it = row.aliases.begin(); !hit && it != row.aliases.end(); ++it) {
          ++rank;
          hit = leaf[col] == NormalizeColumnName(*it);
        }
      }
      if (hit && rank < best_rank) {
        best_rank = rank;
        best_col = col;
      }
    }
    if (best_rank != std::numeric_limits<size_t>::max()) {
      taken[best_col] = true;
      out.emplace_back(std::string(row.field), header[best_col]);
    }
  }
  if (const size_t unused = UnusedWeightUnit(out); unused != std::string::npos) {
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(unused));
  }
  return out;
}

}  // namespace dq::ingest

namespace dq::ingest {
namespace {

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool LooksLikeGtin(std::string_view v) {
  return (v.size() == 8 || v.size() == 12 || v.size() == 13 || v.size() == 14) &&
         AllDigits(v) && HasGs1CheckDigit(v);
}

bool LooksLikeEmail(std::string_view v) {
  const size_t at = v.find('@');
  if (at == 0 || at == std::string_view::npos || v.find('@', at + 1) != std::string_view::npos) {
    return false;
  }
  const size_t dot = v.find('.', at);
  return dot != std::string_view::npos && dot > at + 1 && dot + 1 < v.size() &&
         v.find(' ') == std::string_view::npos;
}

bool LooksLikeImageUrl(std::string_view v) {
  if (!v.starts_with("http://") && !v.starts_with("https://")) return false;
  std::string path = ascii::Lower(v.substr(0, v.find_first_of("?#")));
  for (std::string_view ext : {".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif"}) {
    if (path.ends_with(ext)) return true;
  }
  return false;
}

// "19.99", "1,234.50", "19,99", "$19.99", "15.00 USD", "R$ 19,90": a price with two decimals.
bool LooksLikePrice(std::string_view v) {
  size_t i = 0;
  while (i < v.size() && !(v[i] >= '0' && v[i] <= '9')) {  // a symbol or code before it
    if (i >= 4) return false;
    ++i;
  }
  size_t digits = 0;
  while (i < v.size() && ((v[i] >= '0' && v[i] <= '9') || v[i] == ',' || v[i] == '.' ||
                          v[i] == ' ')) {
    if (v[i] >= '0' && v[i] <= '9') ++digits;
    ++i;
  }
  const std::string_view number = ascii::Trim(v.substr(0, i));
  if (digits == 0 || number.size() < 4) return false;
  const char sep = number[number.size() - 3];
  if ((sep != '.' && sep != ',') || !AllDigits(number.substr(number.size() - 2))) return false;
  const std::string_view rest = ascii::Trim(v.substr(i));
  return rest.size() <= 4;  // nothing or a currency after it
}

struct ValueTest {
  const char* field;
  bool (*test)(std::string_view);
  double min_share;
};

constexpr ValueTest kValueTests[] = {
    {"gtin", LooksLikeGtin, 0.8},
    {"email", LooksLikeEmail, 0.8},
    {"image_url", LooksLikeImageUrl, 0.8},
    {"price", LooksLikePrice, 0.9},
};

bool Allowed(const SourceProfile& profile, std::string_view field) {
  if (profile.fields.empty()) return true;
  for (const auto& f : profile.fields) {
    if (f == field) return true;
  }
  return false;
}

}  // namespace

bool HasGs1CheckDigit(std::string_view digits) {
  if (digits.size() < 8 || digits.size() > 14 || !AllDigits(digits)) return false;
  int sum = 0;
  // From the right, the digit before the check digit weighs 3, the next 1, and so on.
  for (size_t k = 1; k < digits.size(); ++k) {
    const int d = digits[digits.size() - 1 - k] - '0';
    sum += (k % 2 == 1) ? 3 * d : d;
  }
  return (10 - sum % 10) % 10 == digits.back() - '0';
}

InferredMapping InferMappingFrom(std::span<const std::string> header,
                                 std::span<const std::vector<std::string>> sample_rows,
                                 const SourceProfile& profile) {
  std::vector<std::string> normalized, leaf;
  normalized.reserve(header.size());
  for (const std::string& h : header) {
    normalized.push_back(NormalizeColumnName(h));
    leaf.push_back(NormalizedLeaf(h));
  }
  std::vector<bool> taken(header.size(), false);
  for (const std::string& ignored : profile.ignore_columns) {
    const std::string n = NormalizeColumnName(ignored);
    for (size_t c = 0; c < header.size(); ++c) {
      if (normalized[c] == n) taken[c] = true;
    }
  }
  std::vector<std::optional<InferredColumn>> found(kStandardFields.size());
  auto take = [&](size_t f, size_t c, double confidence, const char* how) {
    taken[c] = true;
    found[f] = InferredColumn{std::string(kStandardFields[f]), header[c], confidence, how};
  };
  // 1. The profile's own columns.
  for (const auto& [field, names] : profile.columns) {
    const size_t f = *IndexOf(kStandardFields, field);
    if (!Allowed(profile, field)) continue;
    for (const std::string& name : names) {
      const std::string n = NormalizeColumnName(name);
      size_t hit = SIZE_MAX;
      for (size_t c = 0; c < header.size() && hit == SIZE_MAX; ++c) {
        if (!taken[c] && normalized[c] == n) hit = c;
      }
      if (hit != SIZE_MAX) {
        take(f, hit, 0.99, "source");
        break;
      }
    }
  }
  // 2. The alias table.
  for (size_t f = 0; f < kStandardFields.size(); ++f) {
    if (found[f] || !Allowed(profile, kStandardFields[f])) continue;
    const FieldAliases& row = kTable[f];
    size_t best_rank = std::numeric_limits<size_t>::max();
    size_t best_col = 0;
    for (size_t col = 0; col < header.size(); ++col) {
      if (taken[col] || normalized[col].empty()) continue;
      size_t rank = 0;
      bool hit = normalized[col] == NormalizeColumnName(row.field);
      for (auto it = row.aliases.begin(); !hit && it != row.aliases.end(); ++it) {
        ++rank;
        hit = normalized[col] == NormalizeColumnName(*it);
      }
      if (!hit && !leaf[col].empty()) {
        rank = kLeafRank;
        hit = leaf[col] == NormalizeColumnName(row.field);
        for (auto it = row.aliases.begin(); !hit && it != row.aliases.end(); ++it) {
          ++rank;
          hit = leaf[col] == NormalizeColumnName(*it);
        }
      }
      if (hit && rank < best_rank) {
        best_rank = rank;
        best_col = col;
      }
    }
    if (best_rank != std::numeric_limits<size_t>::max()) {
      take(f, best_col, best_rank == 0 ? 1.0 : best_rank < kLeafRank ? 0.9 : 0.8, "header");
    }
  }
  // 3. Values, for fields still unmapped, from columns still free.
  for (const ValueTest& t : kValueTests) {
    const size_t f = *IndexOf(kStandardFields, t.field);
    if (found[f] || !Allowed(profile, t.field)) continue;
    double best_share = 0;
    size_t best_col = SIZE_MAX;
    for (size_t c = 0; c < header.size(); ++c) {
      if (taken[c]) continue;
      size_t filled = 0, good = 0;
      for (const auto& row : sample_rows) {
        if (c >= row.size()) continue;
        const std::string_view v = ascii::Trim(row[c]);
        if (v.empty()) continue;
        ++filled;
        if (t.test(v)) ++good;
      }
      if (filled < 3) continue;  // too few values to say
      const double share = static_cast<double>(good) / static_cast<double>(filled);
      if (share >= t.min_share && share > best_share) {
        best_share = share;
        best_col = c;
      }
    }
    if (best_col != SIZE_MAX) {
      take(f, best_col, std::min(0.95, std::round(best_share * 0.95 * 100) / 100), "values");
    }
  }
  InferredMapping out;
  for (auto& c : found) {
    if (!c) continue;
    out.mapping.emplace_back(c->field, c->column);
    out.columns.push_back(std::move(*c));
  }
  if (const size_t unused = UnusedWeightUnit(out.mapping); unused != std::string::npos) {
    out.mapping.erase(out.mapping.begin() + static_cast<std::ptrdiff_t>(unused));
    out.columns.erase(out.columns.begin() + static_cast<std::ptrdiff_t>(unused));
  }
  return out;
}

}  // namespace dq::ingest
