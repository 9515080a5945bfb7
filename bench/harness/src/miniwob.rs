//! The MiniWoB++ pages the benchmarks serve, as every tool sees them.

/// Appended to MiniWoB++ pages: start the episode at once with a fixed seed
/// (so every tool sees the same task, without the START cover) and stop its
/// timer (so the task does not end and re-cover itself mid-run).
pub const MINIWOB_START: &str = "<script>window.addEventListener('load', () => { Math.seedrandom('rove-bench'); core.startEpisodeReal(); clearTimeout(core.EP_TIMER); core.EP_TIMER = null; clearInterval(core.CD_TIMER); });</script>";

/// `routes` with each of `tasks` served at `/miniwob/miniwob/<task>.html`,
/// started at once (see [`MINIWOB_START`]), and the rest of the MiniWoB++
/// folder `html` under `/miniwob`.
pub fn serve(
    mut routes: rove_localserver::Routes,
    html: &std::path::Path,
    tasks: &[&str],
) -> Result<rove_localserver::Routes, String> {
    for task in tasks {
        let file = html.join(format!("miniwob/{task}.html"));
        let page = std::fs::read_to_string(&file)
            .map_err(|e| format!("{}: {e} (run bench/run.sh)", file.display()))?;
        routes = routes.page(
            &format!("/miniwob/miniwob/{task}.html"),
            rove_localserver::Response::html(format!("{page}{MINIWOB_START}")),
        );
    }
    Ok(routes.folder("/miniwob", html))
}
