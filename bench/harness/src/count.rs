//! Counts o200k tokens of stdin: `rove-count-tokens < view.txt`.
#![allow(clippy::print_stdout)]
use std::io::Read;
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text)?;
    let bpe = tiktoken_rs::o200k_base()?;
    println!("{}", bpe.encode_with_special_tokens(&text).len());
    Ok(())
}
