#include "dq/ingest/mapping_inference.h"

#include <limits>

#include "dq/common/vocabulary.h"
#include "dq/common/ascii.h"

namespace dq::ingest {
namespace {

// One row per standard field, in kStandardFields order. Ranked: a better match comes first.
// Sources: Shopify product/customer/inventory CSV, WooCommerce product and customer exports,
// Google Merchant Center / Meta catalog feed attributes, Amazon/eBay/Etsy/Shopee/Lazada style
// templates, and gen_catalog.py's PRODUCT_COLUMNS / CUSTOMER_COLUMNS.
const FieldAliases kTable[] = {
    {"sku", {"Variant SKU", "SKU", "item_sku", "seller_sku", "Custom label (SKU)", "Custom label",
             "Product SKU", "Parent SKU", "Article Number", "Item Number", "id", "offer_id",
             "Product ID", "item_id", "retailer_id"}},
    {"title", {"Title", "Name", "Product Name", "item_name", "product_title", "Product Title",
               "Item Title", "name_en"}},
    {"description", {"Body (HTML)", "Description", "product_description", "Body HTML", "Body",
                     "Long Description", "Product Description", "Item Description",
                     "Short description"}},
    {"price", {"Variant Price", "Price", "Regular price", "standard_price", "Start price",
               "Unit Price", "Selling Price", "price_amount", "Retail Price"}},
    {"compare_at_price", {"Variant Compare At Price", "Compare At Price", "Compare-at price",
                          "list_price", "msrp", "Original Price", "RRP", "Was Price"}},
    {"cost_price", {"Cost per item", "Cost", "Cost Price", "cost_of_goods_sold", "Unit Cost",
                    "Purchase Price", "wholesale_price", "cogs"}},
    {"currency", {"Currency", "currency_code", "Price Currency", "Currency Code"}},
    {"availability", {"Availability", "In stock?", "stock_status", "Stock Status",
                      "availability_status", "Inventory Status"}},
    {"image_url", {"Image Src", "image_link", "Image URL", "Images", "main_image_url",
                   "Image", "Item photo URL", "PicURL", "Cover image", "Image 1", "image1",
                   "Main Image", "Photo URL", "Variant Image"}},
    {"brand", {"Vendor", "Brand", "brand_name", "Brands", "Manufacturer", "C:Brand"}},
    {"category", {"Category", "Product Category", "Categories", "fb_product_category",
                  "Category Path", "item_type", "Type"}},
    {"gtin", {"Variant Barcode", "GTIN", "Barcode", "EAN", "UPC", "GTIN, UPC, EAN, or ISBN",
              "external_product_id", "ean13", "isbn", "jan", "Product ID Type Value"}},
    {"weight", {"Variant Grams", "Weight", "Weight (kg)", "Weight (g)", "Weight (lbs)",
                "Weight (lb)", "Weight (oz)", "Weight (grams)", "Weight (kgs)",
                "shipping_weight", "item_weight", "product_weight", "Variant Weight",
                "package_weight", "Grams"}},
    {"hs_code", {"HS Code", "Variant HS Code", "Harmonized System Code", "hs_tariff_code",
                 "HS Tariff Number", "tariff_code", "commodity_code", "Customs Tariff Number"}},
    {"country_of_origin", {"Country of Origin", "Variant Country of Origin",
                           "Country/Region of Origin", "origin_country", "Origin",
                           "Made In", "Country of Manufacture", "coo"}},
    {"vat_number", {"VAT Number", "Supplier VAT", "VAT ID", "VAT", "vat_id", "Tax ID",
                    "VAT Registration Number", "tax_number"}},
    {"email", {"Email", "E-mail", "Email Address", "customer_email", "billing_email",
               "Contact Email", "mail"}},
    {"phone", {"Phone", "Phone Number", "Telephone", "Mobile", "billing_phone",
               "Default Address Phone", "Contact Phone", "Mobile Phone", "tel"}},
    {"country", {"Country", "Country Code", "billing_country", "Default Address Country Code",
                 "Shipping Country", "country_code", "Customer Country"}},
    {"stock_qty", {"Variant Inventory Qty", "Stock", "Quantity", "Qty", "Inventory",
                   "Stock Quantity", "Inventory Quantity", "quantity_to_sell_on_facebook",
                   "Available", "On Hand", "Available Quantity", "stock_qty_available"}},
    {"reorder_point", {"Reorder Point", "Reorder Level", "Low stock amount", "Min Stock",
                       "Safety Stock", "Minimum Stock", "reorder_threshold"}},
    {"expiry_date", {"Expiry Date", "Best Before", "Expiration Date", "Best Before Date",
                     "Use By", "exp_date", "bbd", "Shelf Life End"}},
    {"warehouse_id", {"Location", "Warehouse", "Warehouse ID", "Warehouse Code",
                      "Location ID", "Inventory Location", "Fulfillment Center ID",
                      "fulfillment_center", "Bin Location", "Store ID"}},
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

std::vector<std::string> MappingNotes(
    std::span<const std::string> header,
    std::span<const std::pair<std::string, std::string>> mapping) {
  std::vector<std::string> notes;
  for (const std::string& column : header) {
    bool mapped = false;
    for (const auto& m : mapping) mapped = mapped || m.second == column;
    if (mapped) continue;
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
  std::vector<std::string> normalized;
  normalized.reserve(header.size());
  for (const std::string& h : header) normalized.push_back(NormalizeColumnName(h));

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
  return out;
}

}  // namespace dq::ingest
