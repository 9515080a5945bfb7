//! Datasette through rove, on `staff.db` (`datasette_app.py`: employees with
//! a foreign key to departments): facets, filters, sort, a row page, CSV
//! export and the SQL page. Every end state is what Datasette answered: the
//! query it was asked (the URL rove reports) and the rows it rendered, or
//! the CSV file it exported.

use crate::real_apps::apps;
use crate::real_apps::driver::{Rove, items};

/// The URL of the page in the last answer (`[t1] title URL`).
fn url_of(rove: &Rove) -> String {
    rove.last
        .lines()
        .find(|l| l.starts_with("[t"))
        .and_then(|l| l.rsplit(' ').next())
        .unwrap_or_else(|| panic!("no page line in rove's answer:\n{}", rove.last))
        .to_owned()
}

/// The employees' names in the table rows of the last answer, in order
/// (`| e31 link "1" | Ada | …`).
fn names(rove: &Rove) -> Vec<String> {
    rove.last
        .lines()
        .filter(|l| l.trim_start().starts_with('e') && l.contains(" | "))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            // A row's first cell is its id, a link named by digits (the
            // header's first is "id ▼").
            let id = items(cells.get(1)?).into_iter().next()?;
            let numbered = id
                .name
                .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()));
            (id.role == "link" && numbered).then(|| cells.get(2).map(|c| c.trim().to_owned()))?
        })
        .collect()
}

async fn open_employees(rove: &mut Rove, query: &str) {
    let app = apps::datasette();
    rove.run(&["open", &format!("{}staff/employees{query}", app.url)])
        .await;
}

#[tokio::test]
async fn datasette_facets_filters_sort_a_row_page_and_csv_export() {
    let mut rove = Rove::new("datasette");

    rove.task("datasette: facet by city, then pick Paris");
    open_employees(&mut rove, "").await;
    let city = rove.pick("link", "city");
    rove.run(&["click", &city]).await;
    assert!(url_of(&rove).contains("_facet=city"), "{}", rove.last);
    let paris = rove.pick("link", "Paris");
    rove.run(&["click", &paris]).await;
    assert!(url_of(&rove).contains("city=Paris"), "{}", rove.last);
    assert_eq!(
        names(&rove),
        ["Ada", "Linus", "Ken", "Dennis"],
        "{}",
        rove.last
    );

    rove.task("datasette: filter salary > 5000");
    open_employees(&mut rove, "").await;
    let column = items(&rove.last)
        .into_iter()
        .filter(|i| i.role == "combobox")
        .map(|i| i.reference)
        .collect::<Vec<_>>();
    assert!(
        column.len() >= 2,
        "the filter's column and operator:\n{}",
        rove.last
    );
    let value = items(&rove.last)
        .into_iter()
        .find(|i| i.role == "textbox")
        .map(|i| i.reference)
        .unwrap_or_else(|| panic!("no filter value field:\n{}", rove.last));
    let apply = rove.pick("button", "Apply");
    rove.run(&["select", &column[0], "salary"]).await;
    rove.run(&["select", &column[1], ">"]).await;
    rove.run(&["fill", &value, "5000"]).await;
    rove.run(&["click", &apply]).await;
    assert!(url_of(&rove).contains("salary__gt=5000"), "{}", rove.last);
    assert_eq!(
        names(&rove),
        ["Ada", "Grace", "Linus", "Ken"],
        "{}",
        rove.last
    );

    rove.task("datasette: sort by salary");
    open_employees(&mut rove, "").await;
    let salary = rove.pick("link", "salary");
    rove.run(&["click", &salary]).await;
    assert!(url_of(&rove).contains("_sort=salary"), "{}", rove.last);
    assert_eq!(
        names(&rove),
        [
            "Dennis", "Barbara", "Margaret", "Linus", "Ken", "Grace", "Ada"
        ],
        "{}",
        rove.last
    );

    rove.task("datasette: open a row's page");
    let linus = rove.pick("link", "3");
    rove.run(&["click", &linus]).await;
    assert!(
        url_of(&rove).ends_with("/staff/employees/3"),
        "{}",
        rove.last
    );
    assert!(
        rove.last.contains("| 3 | Linus | 1 | 5100 | Paris |"),
        "{}",
        rove.last
    );

    rove.task("datasette: export the Lyon rows as a CSV file");
    open_employees(&mut rove, "?city=Lyon").await;
    let download = rove.pick("checkbox", "download file");
    let export = rove.pick("button", "Export CSV");
    rove.run(&["check", &download]).await;
    rove.run(&["click", &export]).await;
    let path = rove
        .last
        .lines()
        .find_map(|l| l.strip_prefix("downloaded "))
        .and_then(|l| l.split(" (").next())
        .unwrap_or_else(|| panic!("no download in rove's answer:\n{}", rove.last))
        .to_owned();
    let csv = std::fs::read_to_string(&path).expect("the exported file");
    assert_eq!(
        csv.replace("\r\n", "\n"),
        "id,name,department_id,department_id_label,salary,city\n2,Grace,1,Engineering,6900,Lyon\n6,Barbara,3,Support,4300,Lyon\n",
    );
}

/// Needs rove-input's fill on code editors (issue 23, item 2): the SQL box
/// is CodeMirror, whose text `fill` must replace, not prepend to.
#[tokio::test]
async fn datasette_sql_page_runs_the_query_typed_into_its_editor() {
    let mut rove = Rove::new("datasette_sql");
    rove.task("datasette: run a query on the SQL page");
    open_employees(&mut rove, "").await;
    let sql = rove.pick("link", "✎ View and edit SQL");
    rove.run(&["click", &sql]).await;
    let editor = items(&rove.last)
        .into_iter()
        .find(|i| i.role == "textbox")
        .map(|i| i.reference)
        .unwrap_or_else(|| panic!("no SQL editor:\n{}", rove.last));
    let run = rove.pick("button", "Run SQL");
    let query = "select name, salary from employees where salary > 6000 order by salary desc";
    rove.run(&["fill", &editor, query]).await;
    rove.run(&["click", &run]).await;
    let url = url_of(&rove);
    assert!(
        url.contains(
            "sql=select+name%2C+salary+from+employees+where+salary+%3E+6000+order+by+salary+desc"
        ) && !url.contains("limit+101"),
        "Datasette ran exactly the query typed:\n{}",
        rove.last
    );
    assert!(
        rove.last.contains("| Ada | 7200 |") && rove.last.contains("| Grace | 6900 |"),
        "{}",
        rove.last
    );
}
