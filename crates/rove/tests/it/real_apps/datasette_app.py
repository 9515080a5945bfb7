"""A small Datasette for rove's real-application tests.

`serve ROOT PORT` makes ROOT/staff.db (departments, and employees with a
foreign key to them) unless it exists, then serves it with Datasette on
127.0.0.1:PORT. The tests check what Datasette answers (the URL's query, the
rows it renders, the CSV it exports) against this data.
"""

import sqlite3
import os
import sys
from pathlib import Path

DEPARTMENTS = [(1, "Engineering"), (2, "Sales"), (3, "Support")]
EMPLOYEES = [
    (1, "Ada", 1, 7200, "Paris"),
    (2, "Grace", 1, 6900, "Lyon"),
    (3, "Linus", 1, 5100, "Paris"),
    (4, "Margaret", 2, 4800, "Nantes"),
    (5, "Ken", 2, 5600, "Paris"),
    (6, "Barbara", 3, 4300, "Lyon"),
    (7, "Dennis", 3, 4100, "Paris"),
]


def make(db: Path) -> None:
    partial = db.with_suffix(".tmp")
    partial.unlink(missing_ok=True)
    con = sqlite3.connect(partial)
    con.executescript(
        """
        create table departments (id integer primary key, name text not null);
        create table employees (
            id integer primary key,
            name text not null,
            department_id integer references departments(id),
            salary integer,
            city text
        );
        """
    )
    con.executemany("insert into departments values (?, ?)", DEPARTMENTS)
    con.executemany("insert into employees values (?, ?, ?, ?, ?)", EMPLOYEES)
    con.commit()
    con.close()
    partial.replace(db)


def serve(root: Path, port: str) -> None:
    root.mkdir(parents=True, exist_ok=True)
    db = root / "staff.db"
    if not db.exists():
        make(db)
    datasette = Path(sys.executable).with_name("datasette")
    # Replaced, not a child: the parent-death signal the test set reaches
    # Datasette itself.
    os.execv(
        str(datasette),
        [
            str(datasette),
            "serve",
            str(db),
            "--host",
            "127.0.0.1",
            "--port",
            port,
            "--setting",
            "facet_time_limit_ms",
            "1000",
        ],
    )


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(Path(sys.argv[2]), sys.argv[3])
    else:
        sys.exit(f"unknown command {sys.argv[1]!r}")
