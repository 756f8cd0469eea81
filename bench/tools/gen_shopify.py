#!/usr/bin/env python3
"""Write a Shopify-shaped products export and a flat file of the same size, for the issue 31
speed goal ("a 100k-row Shopify-shaped export (variants included) reaches done within 1.5x the
time of a flat file of the same size"; scripts/bench-variants.sh).

  gen_shopify.py --rows 100000 --out-dir DIR [--variants 3] [--seed 7]

Both files have Shopify's product export header (2021 column set) and the same number of rows.
shopify.csv: products of one product row, VARIANTS-1 variant rows (Option1 Value and the
variant's own SKU, price, grams, stock and barcode; Title, Vendor, Body and Image Src empty, as
Shopify writes them) and one image-only row (Handle and Image Src). flat.csv: every row a
product of its own handle, with the optional columns left empty and a description as long as
gives the file shopify.csv's byte count (within a few %; printed). Each file gets <file>.mapping.json (the mapping dq infers for
Shopify's header). Deterministic for a seed; stdlib only.
"""
import argparse, csv, json, os, random

HEADER = ["Handle", "Title", "Body (HTML)", "Vendor", "Type", "Tags", "Published",
          "Option1 Name", "Option1 Value", "Variant SKU", "Variant Grams",
          "Variant Inventory Tracker", "Variant Inventory Qty", "Variant Price",
          "Variant Compare At Price", "Variant Requires Shipping", "Variant Barcode",
          "Image Src", "Image Position", "Variant Weight Unit", "Cost per item", "Status"]
MAPPING = {"sku": "Variant SKU", "title": "Title", "description": "Body (HTML)",
           "brand": "Vendor", "price": "Variant Price", "image_url": "Image Src",
           "gtin": "Variant Barcode", "weight": "Variant Grams",
           "stock_qty": "Variant Inventory Qty", "cost_price": "Cost per item",
           "category": "Type"}
SIZES = ["XS", "S", "M", "L", "XL", "XXL"]


def gtin13(rng):
    d = [rng.randrange(10) for _ in range(12)]
    s = sum(v * (3 if i % 2 else 1) for i, v in enumerate(d))
    return "".join(map(str, d)) + str((10 - s % 10) % 10)


def product_cells(rng, n, handle):
    price = rng.randrange(500, 20000) / 100
    return {"Handle": handle, "Title": f"Organic cotton shirt {n}",
            "Body (HTML)": f"<p>Soft organic cotton shirt number {n}, made to last.</p>",
            "Vendor": rng.choice(["Acme", "Northwind", "Contoso", "Fabrikam"]),
            "Type": "Shirts", "Tags": "cotton, organic", "Published": "TRUE",
            "Option1 Name": "Size", "Option1 Value": SIZES[0], "Variant SKU": f"SH-{n}-0",
            "Variant Grams": str(rng.randrange(100, 900)), "Variant Inventory Tracker": "shopify",
            "Variant Inventory Qty": str(rng.randrange(0, 200)), "Variant Price": f"{price:.2f}",
            "Variant Compare At Price": "", "Variant Requires Shipping": "TRUE",
            "Variant Barcode": gtin13(rng),
            "Image Src": f"https://cdn.shopify.com/s/files/1/0001/products/shirt-{n}.jpg",
            "Image Position": "1", "Variant Weight Unit": "g",
            "Cost per item": f"{price * 0.4:.2f}", "Status": "active"}


def variant_cells(rng, n, handle, k, base):
    row = {h: "" for h in HEADER}
    row.update({"Handle": handle, "Option1 Value": SIZES[k % len(SIZES)],
                "Variant SKU": f"SH-{n}-{k}", "Variant Grams": str(rng.randrange(100, 900)),
                "Variant Inventory Tracker": "shopify",
                "Variant Inventory Qty": str(rng.randrange(0, 200)),
                "Variant Price": base["Variant Price"], "Variant Requires Shipping": "TRUE",
                "Variant Barcode": gtin13(rng), "Variant Weight Unit": "g",
                "Cost per item": base["Cost per item"]})
    return row


def image_cells(n, handle):
    row = {h: "" for h in HEADER}
    row.update({"Handle": handle, "Image Src":
                f"https://cdn.shopify.com/s/files/1/0001/products/shirt-{n}-back.jpg",
                "Image Position": "2"})
    return row


def write(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, HEADER, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    with open(path + ".mapping.json", "w") as f:
        json.dump(MAPPING, f)
    return os.path.getsize(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100000)
    ap.add_argument("--variants", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out-dir", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    per = a.variants + 1  # product row, variants-1 variant rows, one image row
    rows, n = [], 0
    while len(rows) < a.rows:
        handle = f"organic-shirt-{n}"
        base = product_cells(rng, n, handle)
        group = [base] + [variant_cells(rng, n, handle, k, base) for k in range(1, a.variants)]
        group.append(image_cells(n, handle))
        rows.extend(group[:a.rows - len(rows)])
        n += 1
    size = write(os.path.join(a.out_dir, "shopify.csv"), rows)
    # Flat: the same row count, every row a product; the description is cut so both files have
    # the same bytes (flat rows are fuller, so they carry a shorter body).
    rng = random.Random(a.seed)
    flat = [product_cells(rng, i, f"organic-shirt-{i}") for i in range(a.rows)]
    for r in flat:  # optional columns left empty, so a row is about a Shopify row's size
        for h in ("Body (HTML)", "Tags", "Published", "Option1 Name", "Option1 Value",
                  "Image Position", "Variant Weight Unit", "Variant Inventory Tracker"):
            r[h] = ""
        i = r["Variant SKU"].split("-")[1]
        r["Handle"], r["Title"] = f"shirt-{i}", f"Shirt {i}"
        r["Image Src"] = f"https://cdn.shopify.com/s/files/1/{i}.jpg"
    full = sum(len(",".join(r.values())) + 1 for r in flat)
    spare = (size - full) // a.rows  # the description takes the difference
    for r in flat:
        r["Body (HTML)"] = ("Soft organic cotton shirt. " * 10)[:max(0, spare)].strip()
    flat_size = write(os.path.join(a.out_dir, "flat.csv"), flat)
    print(json.dumps({"rows": a.rows, "shopify_bytes": size, "flat_bytes": flat_size,
                      "products": n}))


if __name__ == "__main__":
    main()
