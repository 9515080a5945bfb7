"""A small Gradio app for rove's real-application tests (apps.rs starts it
with a port): a theme dropdown that takes only its options, a number field,
a slider, a payment the server computes (slowly, through Gradio's queue) and
a Save button; a second tab with a term slider whose estimate the server
computes on every change, a statement upload it counts, and a third tab
whose code and table Gradio draws only once the tab is opened. Each handler writes what the server received to
ROVE_GRADIO_STATE/<run>.json, `run` being the page's query parameter: the
tests check end states there, not in rove.
"""

import json
import os
import sys
import time
from pathlib import Path

import gradio as gr

STATE = Path(os.environ["ROVE_GRADIO_STATE"])
STATE.mkdir(parents=True, exist_ok=True)


def record(request, **values):
    run = request.query_params.get("run", "default")
    file = STATE / f"{run}.json"
    state = json.loads(file.read_text()) if file.exists() else {}
    state.update(values)
    # Written whole, then renamed: the test never reads half a state.
    partial = STATE / f"{run}.json.tmp"
    partial.write_text(json.dumps(state))
    partial.replace(file)


def save(theme, principal, years, request: gr.Request):
    record(request, saved={"theme": theme, "principal": principal, "years": years})
    return f"Saved theme {theme}"


def payment(principal, years, request: gr.Request):
    # Slow enough that an answer taken before the server's is visibly old.
    time.sleep(0.5)
    rate = 0.05 / 12
    months = years * 12
    monthly = principal * rate / (1 - (1 + rate) ** -months)
    record(request, payment={"principal": principal, "years": years, "monthly": round(monthly, 2)})
    return f"Monthly payment: {monthly:.2f}"


def estimate(term, request: gr.Request):
    # Each change is answered late (past the quiet rove allows between a
    # server's frames), so a value the slider passes through is answered
    # after the keys moved on, and the last one later still.
    time.sleep(0.6)
    record(request, estimate={"term": term})
    return f"Estimate for {term} years: {term * 1000} EUR"


def statement(file, request: gr.Request):
    if file is None:
        return "No statement"
    lines = Path(file).read_text().count("\n")
    record(request, statement={"lines": lines})
    return f"Statement lines: {lines}"


with gr.Blocks(title="Rove loans") as demo:
    with gr.Tab("Loan"):
        theme = gr.Dropdown(["System", "Light", "Dark"], value="System", label="Theme")
        principal = gr.Number(value=100000, label="Principal")
        years = gr.Slider(1, 30, value=20, step=1, label="Years")
        result = gr.Markdown("No payment yet")
        saved = gr.Markdown("Nothing saved")
        compute = gr.Button("Compute")
        save_button = gr.Button("Save")
        compute.click(payment, [principal, years], result)
        save_button.click(save, [theme, principal, years], saved)
    with gr.Tab("Estimate"):
        term = gr.Slider(1, 40, value=10, step=1, label="Term")
        estimated = gr.Markdown("No estimate yet")
        term.change(estimate, term, estimated)
        upload = gr.File(label="Statement", file_types=[".txt"], type="filepath")
        counted = gr.Markdown("No statement")
        upload.upload(statement, upload, counted)
    with gr.Tab("Schedule"):
        gr.Code("schedule = plan(term=20)\nfor month in schedule:\n    pay(month)", language="python", label="Plan")
        gr.Dataframe([[1, 421.6], [2, 421.6]], headers=["Month", "Payment"], label="Table")

demo.queue().launch(server_name="127.0.0.1", server_port=int(sys.argv[1]))
