"""A small Streamlit app for rove's real-application tests: `streamlit run`
serves it (crates/rove/tests/it/real_apps/apps.rs starts it).

A sidebar with radios, a text input, a selectbox, a slider, a button whose
result the server computes, and tabs holding a data editor and a note. After
every run it writes what the server holds (the widgets' values, the total it
computed, the data editor's rows) to STATE_DIR/<run>.json, `run` being the
page's query parameter: the tests check end states there, not in rove.
"""

import json
import os
from pathlib import Path

import pandas as pd
import streamlit as st

st.set_page_config(page_title="Rove shop")

PRICES = {"Apples": 3, "Pears": 4, "Plums": 5}

run = st.query_params.get("run", "default")

with st.sidebar:
    region = st.radio("Region", ["North", "East", "South"])

st.title("Rove shop")
name = st.text_input("Customer name")
product = st.selectbox("Product", list(PRICES))
quantity = st.slider("Quantity", 0, 100, 10)

if st.button("Compute total"):
    st.session_state["total"] = PRICES[product] * quantity
if "total" in st.session_state:
    st.write(f"Total: {st.session_state['total']} EUR")

orders_tab, notes_tab = st.tabs(["Orders", "Notes"])
with orders_tab:
    orders = st.data_editor(
        pd.DataFrame({"item": ["Apples", "Pears"], "count": [1, 2]}),
        key="orders",
    )
with notes_tab:
    st.write("Deliver before noon")

state = {
    "region": region,
    "name": name,
    "product": product,
    "quantity": quantity,
    "total": st.session_state.get("total"),
    "orders": orders.to_dict(orient="records"),
}
folder = Path(os.environ["ROVE_STREAMLIT_STATE"])
folder.mkdir(parents=True, exist_ok=True)
# Written whole, then renamed: the test never reads half a state.
partial = folder / f"{run}.json.tmp"
partial.write_text(json.dumps(state))
partial.replace(folder / f"{run}.json")
