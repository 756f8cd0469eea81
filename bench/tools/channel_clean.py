"""A channel-clean variant of gen_catalog's /v1/validate body (issue 32's extra figure).

gen_catalog's product rows are a shop export, not a channel feed: no row has `link` or
`condition`, every description is HTML, every image is on cdn.example.com (a placeholder host),
and preorder/backorder rows have no availability date. Under `platform=all` every row is then
blocked on every channel, with four or five issues each. A merchant feed sent to Merchant Center
or Meta carries those attributes; this variant adds them, so that the eight templates find what
they would find in such a feed (the rows' own faults stay: duplicate SKUs, bad GTINs, outliers).

    clean(body)  # in place: a body as scripts/lib/local-stack.sh's make_validate_body writes it
"""
import re

_TAG = re.compile(r"<[^>]*>")


def clean(body):
    mapping = body["mapping"]
    desc = mapping.get("description")
    image = mapping.get("image_url")
    availability = mapping.get("availability")
    for i, record in enumerate(body["records"]):
        sku = record.get(mapping.get("sku", ""), "") or f"item-{i + 1}"
        record["Link"] = f"https://www.kirei-shop.com/products/{sku}"
        record["Condition"] = "new"
        if desc and isinstance(record.get(desc), str):
            record[desc] = _TAG.sub("", record[desc]).strip()
        if image and isinstance(record.get(image), str):
            record[image] = record[image].replace("cdn.example.com", "cdn.kirei-shop.com")
        when = ""
        if availability and record.get(availability) in ("preorder", "backorder"):
            when = "2027-03-01"
        record["Availability Date"] = when
    mapping["link"] = "Link"
    mapping["condition"] = "Condition"
    mapping["availability_date"] = "Availability Date"
    return body
