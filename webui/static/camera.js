// The camera's card, on the front page, the table page and "Your dice": its live picture
// and status line.
// The picture is an endless MJPEG stream, so it opens only once the page has loaded (a
// stream in the markup would hold the page "loading" for ever), and it is reopened after
// the server restarts. The status line is kept current while the camera runs.
const camera = document.getElementById("camera");
if (camera) {
  const live = document.getElementById("live");
  if (live) {
    const open = () => { live.src = `${live.dataset.src}?${Date.now()}`; };
    live.addEventListener("error", () => setTimeout(open, 2000));
    if (document.readyState === "complete") open();
    else window.addEventListener("load", open);
    // a page brought back by Back or by unlocking the phone fires no load: its picture had stopped
    window.addEventListener("pageshow", (event) => { if (event.persisted) open(); });
  }
  const cameraStatus = document.getElementById("camera-status");
  setInterval(async () => {
    try {
      const response = await fetch(camera.dataset.status);
      if (response.ok) cameraStatus.textContent = `camera: ${(await response.json()).status}`;
    } catch {
      // The server is restarting: the next look says how the camera is.
    }
  }, 2000);
}
