//! The shop's fixed catalogue and its search: a query on names and
//! descriptions, a category, a price ceiling and an order.

/// One product.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Product {
    /// The id in URLs and the API.
    pub sku: &'static str,
    /// What pages show.
    pub name: &'static str,
    /// One of [`CATEGORIES`].
    pub category: &'static str,
    /// In cents, so totals add up exactly.
    pub price: u64,
    /// Units left; 0 cannot be added to a cart.
    pub stock: u32,
    /// A line for the product page.
    pub description: &'static str,
}

/// The categories, in the order the filter lists them.
pub const CATEGORIES: [&str; 4] = ["lighting", "furniture", "kitchen", "stationery"];

const fn p(
    sku: &'static str,
    name: &'static str,
    category: &'static str,
    price: u64,
    stock: u32,
    description: &'static str,
) -> Product {
    Product {
        sku,
        name,
        category,
        price,
        stock,
        description,
    }
}

/// Every product, in the shop's default order.
pub const PRODUCTS: [Product; 12] = [
    p(
        "lamp",
        "Desk Lamp",
        "lighting",
        2499,
        40,
        "An adjustable desk lamp with a warm LED.",
    ),
    p(
        "floor-lamp",
        "Floor Lamp",
        "lighting",
        5999,
        12,
        "A tall lamp with a linen shade.",
    ),
    p(
        "bulb",
        "LED Bulb (4-pack)",
        "lighting",
        899,
        200,
        "Four warm-white E27 bulbs.",
    ),
    p(
        "desk",
        "Standing Desk",
        "furniture",
        34900,
        5,
        "A desk that rises at the press of a button.",
    ),
    p(
        "chair",
        "Office Chair",
        "furniture",
        18900,
        8,
        "A chair with lumbar support.",
    ),
    p(
        "shelf",
        "Book Shelf",
        "furniture",
        7900,
        15,
        "Five shelves of oak veneer.",
    ),
    p(
        "mug",
        "Coffee Mug",
        "kitchen",
        1200,
        80,
        "A stoneware mug that holds 350 ml.",
    ),
    p(
        "kettle",
        "Electric Kettle",
        "kitchen",
        3900,
        25,
        "Boils a litre in three minutes.",
    ),
    p(
        "grinder",
        "Coffee Grinder",
        "kitchen",
        4900,
        10,
        "A burr grinder with twelve settings.",
    ),
    p(
        "notebook",
        "Dotted Notebook",
        "stationery",
        650,
        120,
        "A5, 160 dotted pages.",
    ),
    p(
        "pen",
        "Fountain Pen",
        "stationery",
        2800,
        30,
        "A steel nib and a converter.",
    ),
    p(
        "stapler",
        "Stapler",
        "stationery",
        1500,
        0,
        "Staples up to 25 sheets.",
    ),
];

/// The product with this sku.
pub fn product(sku: &str) -> Option<&'static Product> {
    PRODUCTS.iter().find(|p| p.sku == sku)
}

/// What the search form asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Search {
    /// Words that must all appear in the name or description.
    pub query: String,
    /// A category, or empty for all.
    pub category: String,
    /// The highest price in cents, if any.
    pub max_price: Option<u64>,
    /// `price`, `price_desc`, `name`, or empty for the shop's order.
    pub sort: String,
}

/// The products that match, in the order asked for.
pub fn search(search: &Search) -> Vec<&'static Product> {
    let words: Vec<String> = search
        .query
        .split_whitespace()
        .map(str::to_lowercase)
        .collect();
    let mut found: Vec<&'static Product> = PRODUCTS
        .iter()
        .filter(|p| {
            let text = format!("{} {}", p.name, p.description).to_lowercase();
            words.iter().all(|w| text.contains(w.as_str()))
        })
        .filter(|p| search.category.is_empty() || p.category == search.category)
        .filter(|p| search.max_price.is_none_or(|max| p.price <= max))
        .collect();
    match search.sort.as_str() {
        "price" => found.sort_by_key(|p| p.price),
        "price_desc" => found.sort_by_key(|p| std::cmp::Reverse(p.price)),
        "name" => found.sort_by_key(|p| p.name),
        _ => {}
    }
    found
}

/// Cents as dollars: `2499` → `$24.99`.
pub fn money(cents: u64) -> String {
    format!("${}.{:02}", cents / 100, cents % 100)
}

/// A price the user typed (`40`, `39.5`, `$12.00`) in cents.
pub fn parse_money(text: &str) -> Option<u64> {
    let text = text.trim().trim_start_matches('$');
    if text.is_empty() {
        return None;
    }
    let (whole, part) = text.split_once('.').unwrap_or((text, ""));
    let whole: u64 = whole.parse().ok()?;
    let part: u64 = match part.len() {
        0 => 0,
        1 => part.parse::<u64>().ok()? * 10,
        2 => part.parse().ok()?,
        _ => return None,
    };
    whole.checked_mul(100)?.checked_add(part)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_filters_and_sorts() {
        let lamps = search(&Search {
            query: "lamp".into(),
            ..Search::default()
        });
        assert_eq!(lamps.len(), 2);
        let kitchen = search(&Search {
            category: "kitchen".into(),
            max_price: Some(4000),
            sort: "price".into(),
            ..Search::default()
        });
        let names: Vec<&str> = kitchen.iter().map(|p| p.name).collect();
        assert_eq!(names, ["Coffee Mug", "Electric Kettle"]);
    }

    #[test]
    fn money_reads_and_writes_dollars() {
        assert_eq!(money(2499), "$24.99");
        assert_eq!(parse_money("$39.5"), Some(3950));
        assert_eq!(parse_money("40"), Some(4000));
        assert_eq!(parse_money("4x"), None);
        assert_eq!(parse_money("1.234"), None);
    }
}
