"""Write tests/playsheets/golden/sheets.json from WeasyPrint's render of each period sheet."""

from tests.playsheets.golden import GOLDEN, write

write()
print(f"wrote {GOLDEN}")
