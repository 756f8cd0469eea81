#!/usr/bin/python3
"""Builds the XLSX test corpus into OUTDIR (run by CTest before the ingest tests).

Real-world-shaped workbooks made with openpyxl (python3-openpyxl) and, when LibreOffice is
installed, one converted by `soffice --headless --convert-to xlsx` from a CSV, so that a file
written by a real spreadsheet program is covered. Also damaged variants made from them: a
truncated zip, a workbook without sheets, an encrypted-looking (OLE) file.

  make_corpus.py OUTDIR
"""
import datetime
import io
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

import openpyxl


def products(path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Products"
    ws.append(["SKU", "Title", "Price", "GTIN", "Stock", "Expiry Date", "Active", "Weight (kg)"])
    ws.append(["A-1", "Oak chair", 19.99, 4006381333931, 10, datetime.date(2026, 12, 31), True, 1.2])
    ws.append(["A-2", "Pine table", 120, 36000291452, 3.0, datetime.date(2027, 1, 15), False, 0.5])
    ws.append(["A-3", "Lamp \u00e9t\u00e9 \u201cLux\u201d", 0.1, 9780306406157, 0,
               datetime.datetime(2026, 3, 1, 14, 30), None, 2])
    ws["F4"].number_format = "yyyy-mm-dd hh:mm:ss"
    ws.append([None, None, None, None, None, None, None, None])  # blank row, skipped
    ws.append(["A-4", "=CONCAT(\"x\",\"y\")", 1e20, 12345678901234, -5, 45000, True, None])
    ws["F6"].number_format = "dd/mm/yyyy"
    wb.save(path)


def inline_strings(path):
    """A minimal workbook written by hand with inline strings (as some exporters do)."""
    sheet = ('<?xml version="1.0" encoding="UTF-8"?>'
             '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
             '<row r="1"><c r="A1" t="inlineStr"><is><t>sku</t></is></c>'
             '<c r="B1" t="inlineStr"><is><r><t>ti</t></r><r><t>tle</t></r></is></c></row>'
             '<row r="3"><c r="A3" t="inlineStr"><is><t>X&amp;1</t></is></c>'
             '<c r="C3" t="n"><v></v></c><c r="B3" t="b"><v>1</v></c></row>'
             '</sheetData></worksheet>')
    write_minimal(path, sheet, sheets='<sheet name="Data" sheetId="1" r:id="rId1"/>')


def write_minimal(path, sheet_xml, sheets):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml",
                   '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="xml" ContentType="application/xml"/></Types>')
        z.writestr("xl/workbook.xml",
                   '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                   'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
                   f'<sheets>{sheets}</sheets></workbook>')
        z.writestr("xl/_rels/workbook.xml.rels",
                   '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>')
        z.writestr("xl/worksheets/sheet1.xml", sheet_xml)


def missing_shared_string(path):
    """Cell B2 points at shared string 7 of a workbook that has none."""
    sheet = ('<?xml version="1.0" encoding="UTF-8"?>'
             '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
             '<row r="1"><c r="A1" t="inlineStr"><is><t>sku</t></is></c>'
             '<c r="B1" t="inlineStr"><is><t>title</t></is></c></row>'
             '<row r="2"><c r="A2" t="inlineStr"><is><t>S-1</t></is></c>'
             '<c r="B2" t="s"><v>7</v></c></row>'
             '</sheetData></worksheet>')
    write_minimal(path, sheet, sheets='<sheet name="Data" sheetId="1" r:id="rId1"/>')


def many_rows(path, rows):
    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Big")
    ws.append(["sku", "price"])
    for i in range(rows):
        ws.append([f"S{i}", i + 0.5])
    wb.save(path)


def libreoffice(outdir):
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if not soffice:
        return False
    csv = os.path.join(outdir, "lo_source.csv")
    with open(csv, "w", encoding="utf-8") as f:
        f.write("sku,title,price,gtin,expiry_date\n"
                "L-1,Caf\u00e9 mug,4.5,4006381333931,2026-12-31\n"
                "L-2,Teapot,12,036000291452,2027-01-02\n")
    profile = tempfile.mkdtemp(prefix="dq-lo-")
    try:
        subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless",
                        "--infilter=CSV:44,34,76,1", "--convert-to", "xlsx", "--outdir", outdir, csv],
                       check=True, timeout=120, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    except (subprocess.SubprocessError, OSError):
        return False
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return os.path.exists(os.path.join(outdir, "lo_source.xlsx"))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    products(os.path.join(out, "products.xlsx"))
    inline_strings(os.path.join(out, "inline.xlsx"))
    many_rows(os.path.join(out, "rows_20.xlsx"), 20)
    missing_shared_string(os.path.join(out, "missing_shared_string.xlsx"))
    write_minimal(os.path.join(out, "no_sheets.xlsx"), "<worksheet/>", sheets="")
    with open(os.path.join(out, "products.xlsx"), "rb") as f:
        data = f.read()
    with open(os.path.join(out, "truncated.xlsx"), "wb") as f:
        f.write(data[: len(data) // 2])
    # An encrypted workbook is an OLE2 compound file (EncryptedPackage), not a zip.
    with open(os.path.join(out, "encrypted.xlsx"), "wb") as f:
        f.write(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1" + b"\0" * 504)
    made_lo = libreoffice(out)
    print(f"corpus written to {out} (LibreOffice file: {'yes' if made_lo else 'no'})")


if __name__ == "__main__":
    main()
