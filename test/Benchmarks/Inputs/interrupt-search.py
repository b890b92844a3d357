"""Makes a finished search of compare_search.py look cut short, as a run
killed while it measured its last candidate leaves it: that measurement
removed from its database, its .done.json replaced by the .progress.json
written when it started, which says it started SECONDS before its last
recorded measurement, after RUNS earlier runs that took EARLIER seconds.

    interrupt-search.py WORK/KERNEL-LABEL.db SECONDS EARLIER RUNS [--other-options]
"""
import json
import sqlite3
import sys
from pathlib import Path

db = Path(sys.argv[1])
seconds, earlier, runs = float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
done = db.with_suffix(".done.json")
options = json.loads(done.read_text())["options"]
if "--other-options" in sys.argv[5:]:
    options["seed"] += 1
connection = sqlite3.connect(db)
with connection:
    connection.execute("DELETE FROM measurements WHERE id = "
                       "(SELECT max(id) FROM measurements)")
last = connection.execute("SELECT max(timestamp) FROM measurements").fetchone()[0]
connection.close()
db.with_suffix(".progress.json").write_text(json.dumps({
    "options": options, "started": last - seconds, "seconds": earlier,
    "runs": runs}) + "\n")
done.unlink()
