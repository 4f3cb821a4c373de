// Opens a `riglens-cli review` report from disk in Debian's Chromium, driven
// headless by puppeteer-core, and uses it as a person would: counts the
// cards, searches, filters by state and kind, sorts, and plays a video.
// Nothing may fail to load, and no video loads before it is asked for.
// Prints what it saw as JSON on stdout; the C++ test judges it.
//   node review_page.mjs REPORT_DIR SCREENSHOT.png [CHROMIUM]
import puppeteer from "puppeteer-core";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [reportDir, screenshot, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  // No sandbox: CI runs as root in a container, where Chromium's sandbox cannot start.
  args: ["--no-sandbox", "--autoplay-policy=no-user-gesture-required", "--window-size=1400,1000"],
});
const seen = { consoleErrors: [], pageErrors: [], failedRequests: [] };
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  page.on("console", m => { if (m.type() === "error") seen.consoleErrors.push(m.text()); });
  page.on("pageerror", e => seen.pageErrors.push(String(e)));
  page.on("requestfailed", r => seen.failedRequests.push(r.url() + " " + (r.failure() || {}).errorText));
  await page.goto(pathToFileURL(path.join(reportDir, "index.html")).href, { waitUntil: "load" });

  const cards = () => page.$$eval("#items article", as => as.map(a => ({
    name: a.querySelector(".name").textContent, state: a.className })));
  const set = async (selector, value) => page.$eval(selector, (e, v) => {
    e.value = v;
    e.dispatchEvent(new Event("input"));
  }, value);

  seen.all = await cards();
  seen.summary = await page.$eval("#summary", e => e.textContent);
  await set("#search", "walker");
  seen.searched = await cards();
  await set("#search", "");
  await set("#severity", "failed");
  seen.failed = await cards();
  await set("#severity", "");
  seen.kinds = await page.$$eval("#kind option", os => os.map(o => o.value).filter(Boolean));
  await set("#kind", "splat scene");
  seen.splats = await cards();
  await set("#kind", "");
  await set("#sort", "status");
  seen.failedFirst = await cards();
  await set("#sort", "name");

  // The first item's video: asked for with its Play button, as a person would.
  seen.videosBeforePlay = await page.$$eval("#items video", vs => vs.length);
  await page.click("#items .media .play");
  await page.waitForSelector("#items video");
  seen.video = await page.$eval("#items video", async v => {
    v.muted = true;
    await v.play();
    await new Promise(done => {
      if (v.readyState >= 3) done();
      else v.addEventListener("canplay", done, { once: true });
    });
    await new Promise(done => setTimeout(done, 300));
    return { src: v.getAttribute("src"), readyState: v.readyState, duration: v.duration,
             currentTime: v.currentTime, width: v.videoWidth, height: v.videoHeight, error: v.error && v.error.code };
  });
  await page.screenshot({ path: screenshot, fullPage: false });
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
