// Installed in every page before its own scripts (Playwright's addInitScript): the measuring
// side of the browser benchmarks, in the page, on the page's clocks. Plain browser JavaScript,
// evaluated by Chromium as it is (the page's CSP does not apply to init scripts).
/* global window, document, requestAnimationFrame, MutationObserver */
;(() => {
  const bench = {
    longTasks: [],
    socket: { received: [], sent: [] },
  }
  window.__bench = bench

  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        bench.longTasks.push({ start: entry.startTime, duration: entry.duration })
    }).observe({ type: 'longtask', buffered: true })
  } catch {
    bench.longTasksUnsupported = true
  }

  /** Runs `callback` once the next frame has been produced: a rAF, then a task after it. */
  const afterPaint = (callback) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => callback()
      channel.port2.postMessage(0)
    })
  bench.afterPaint = afterPaint

  // When each WebSocket frame came and went (epoch ms), to split a latency into its legs.
  const NativeSocket = window.WebSocket
  if (NativeSocket) {
    window.WebSocket = class extends NativeSocket {
      constructor(...args) {
        super(...args)
        this.addEventListener('message', (event) => {
          if (!bench.socket.recording) return
          const text = typeof event.data === 'string' ? event.data : ''
          bench.socket.received.push({
            at: Date.now(),
            bytes: text.length,
            text: text.length < 262144 ? text : text.slice(0, 4096),
          })
        })
      }
      send(data) {
        if (bench.socket.recording)
          bench.socket.sent.push({ at: Date.now(), text: String(data).slice(0, 4096) })
        return super.send(data)
      }
    }
  }

  /**
   * Watches the text under `scope` for stamps `pattern` (a regex with an id in group 1 and the
   * sender's Date.now() in group 2); records when each new one first appeared in the DOM and
   * when the frame after that was produced. Stamps already there when watching starts are not
   * counted.
   */
  bench.watchStamps = (scope, pattern) => {
    const regex = new RegExp(pattern, 'g')
    const seen = new Map()
    let initial = true
    const scan = () => {
      const element = document.querySelector(scope)
      if (element === null) return
      const text = element.textContent || ''
      const at = Date.now()
      const fresh = []
      for (const match of text.matchAll(regex)) {
        const key = match[0]
        if (seen.has(key)) continue
        const record = {
          key,
          id: match[1],
          sent: Number(match[2]),
          dom: at,
          paint: 0,
          old: initial,
        }
        seen.set(key, record)
        if (!initial) fresh.push(record)
      }
      if (fresh.length > 0)
        afterPaint(() => {
          const painted = Date.now()
          for (const record of fresh) record.paint = painted
        })
    }
    const observer = new MutationObserver(scan)
    observer.observe(document.body, { childList: true, subtree: true, characterData: true })
    scan()
    initial = false
    const current = () => [...seen.values()].filter((record) => !record.old)
    bench.stamps = {
      count: () => current().length,
      painted: () => current().filter((record) => record.paint > 0).length,
      stop: () => {
        observer.disconnect()
        return current()
      },
    }
  }

  /**
   * Clicks `click`, then waits until the text under `scope` includes `marker`; resolves with the
   * ms from the click to the DOM change and to the frame after it.
   */
  bench.clickUntil = (click, scope, marker, timeoutMs) =>
    new Promise((resolve, reject) => {
      let observer = null
      const timer = setTimeout(() => {
        observer?.disconnect()
        reject(new Error(`"${marker}" did not appear under ${scope} within ${timeoutMs} ms`))
      }, timeoutMs)
      const start = performance.now()
      const check = () => {
        const element = document.querySelector(scope)
        if (element === null || !(element.textContent || '').includes(marker)) return
        observer?.disconnect()
        observer = null
        const dom = performance.now() - start
        afterPaint(() => {
          clearTimeout(timer)
          resolve({ dom, paint: performance.now() - start, start })
        })
      }
      observer = new MutationObserver(check)
      observer.observe(document.body, { childList: true, subtree: true, characterData: true })
      const target = document.querySelector(click)
      if (target === null) {
        clearTimeout(timer)
        reject(new Error(`nothing to click at ${click}`))
        return
      }
      target.click()
    })

  /** Counts frames (rAF timestamps) until stopped. */
  bench.recordFrames = () => {
    const frames = []
    let running = true
    const tick = (time) => {
      frames.push(time)
      if (running) requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
    bench.frames = {
      stop: () => {
        running = false
        return frames
      },
    }
  }

  /** Scrolls `selector` up by `pixels` a frame for `ms`; resolves with the frame times. */
  bench.scrollUp = (selector, pixels, ms) =>
    new Promise((resolve, reject) => {
      const element = document.querySelector(selector)
      if (element === null) {
        reject(new Error(`nothing to scroll at ${selector}`))
        return
      }
      const frames = []
      const start = performance.now()
      const startTop = element.scrollTop
      const step = (time) => {
        frames.push(time)
        element.scrollTop = Math.max(0, element.scrollTop - pixels)
        if (time - start < ms) requestAnimationFrame(step)
        else resolve({ frames, start, end: time, startTop, endTop: element.scrollTop })
      }
      requestAnimationFrame(step)
    })

  /**
   * First paint of the app, watched from the document's start when the benchmark configured it
   * (window.__benchConfig.firstPaint = {selector, count, scope?, marker?}): the ms since the
   * navigation began until `count` elements match `selector` (and `scope` shows `marker`), in
   * the DOM and then painted.
   */
  const firstPaint = window.__benchConfig && window.__benchConfig.firstPaint
  if (firstPaint) {
    const ready = () => {
      if (document.querySelectorAll(firstPaint.selector).length < firstPaint.count) return false
      if (!firstPaint.marker) return true
      const scope = document.querySelector(firstPaint.scope)
      return scope !== null && (scope.textContent || '').includes(firstPaint.marker)
    }
    // When the app replaced the server's first view (src/shared/first-view.ts), if there was one.
    let sawFirstView = false
    const handOver = new MutationObserver(() => {
      const present = document.getElementById('first-view') !== null
      if (present) sawFirstView = true
      else if (sawFirstView) {
        bench.handedOver = performance.now()
        handOver.disconnect()
      }
    })
    handOver.observe(document, { childList: true, subtree: true })
    const observer = new MutationObserver(() => {
      if (bench.firstPaint || !ready()) return
      observer.disconnect()
      const dom = performance.now()
      bench.firstPaint = { dom, paint: 0 }
      afterPaint(() => {
        bench.firstPaint.paint = performance.now()
      })
    })
    observer.observe(document, { childList: true, subtree: true, characterData: true })
  }
})()
