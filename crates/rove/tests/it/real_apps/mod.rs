//! Real applications nobody at rove wrote, Django's admin, JupyterLab,
//! Notebook 7, Streamlit, Datasette and Gradio (installed from PyPI by
//! scripts/fetch-apps.sh),
//! driven through the `rove` binary's public commands in real Chromium, the
//! way a user or an agent drives them: refs are picked from rove's answers,
//! never by CSS selector or script. Every task checks its end state on the
//! server (the database, the notebook file, what the Streamlit server holds,
//! what Datasette and Gradio received), never through rove's own view alone. Each app
//! starts once for the whole binary.

mod apps;
mod datasette;
mod django;
mod driver;
mod gradio;
mod jupyter;
mod notebook;
mod streamlit;
