; SPDX-License-Identifier: Apache-2.0
; GIMP batch helpers for scripts/make-layered-fixtures.sh (Script-Fu, GIMP 2.10).

; GIMP's own composite of a document's visible layers, as a PNG with alpha.
(define (rig2d-flatten in out)
  (let* ((img (car (gimp-file-load RUN-NONINTERACTIVE in in)))
         (merged (car (gimp-image-merge-visible-layers img CLIP-TO-IMAGE))))
    (gimp-layer-resize-to-image-size merged)
    (file-png-save2 RUN-NONINTERACTIVE img merged out out 0 9 0 0 0 0 0 0 0)
    (gimp-image-delete img)))

; One layer of the canvas size's bounds or smaller, at x, y, filled within an ellipse selection
; (canvas coordinates) with a gradient from fg to bg. Its mode is GIMP's legacy Normal, which blends
; in the image's own (sRGB) values as Photoshop's "norm" does; GIMP 2.10's default Normal blends in
; linear light, a composite a PSD cannot carry (its partly transparent overlaps differ by up to 27 LSB).
(define (rig2d-layer img name x y w h opacity sx sy sw sh fg bg feather)
  (let* ((layer (car (gimp-layer-new img w h RGBA-IMAGE name opacity LAYER-MODE-NORMAL-LEGACY))))
    (gimp-image-insert-layer img layer 0 -1)
    (gimp-layer-set-offsets layer x y)
    (gimp-context-set-antialias TRUE)
    (gimp-context-set-feather (if (> feather 0) TRUE FALSE))
    (gimp-context-set-feather-radius feather feather)
    (gimp-image-select-ellipse img CHANNEL-OP-REPLACE sx sy sw sh)
    (gimp-context-set-foreground fg)
    (gimp-context-set-background bg)
    (gimp-context-set-gradient-fg-bg-rgb)
    (gimp-drawable-edit-gradient-fill layer GRADIENT-LINEAR 0 FALSE 1 0 TRUE sx sy (+ sx sw) (+ sy sh))
    (gimp-selection-none img)
    layer))

; A character drawn by GIMP itself: soft (feathered) and hard edges, a 70% layer hanging over the
; left edge, a hidden layer; saved as PSD (RLE) and flattened by GIMP.
(define (rig2d-gimp-figure psd png)
  (let* ((img (car (gimp-image-new 96 128 RGB))))
    (rig2d-layer img "legs" 24 76 48 52 100 28 78 40 48 '(50 60 140) '(90 110 200) 0)
    (rig2d-layer img "torso" 20 36 56 50 100 22 38 52 46 '(190 70 50) '(240 140 90) 0)
    (rig2d-layer img "arm" -10 44 40 16 70 -8 46 36 12 '(200 150 90) '(250 210 160) 0)
    (rig2d-layer img "head" 26 4 44 40 100 28 6 40 36 '(220 180 140) '(250 220 190) 3)
    (let ((note (rig2d-layer img "note" 0 0 96 20 100 0 0 96 20 '(0 0 0) '(255 0 0) 0)))
      (gimp-item-set-visible note FALSE))
    (file-psd-save RUN-NONINTERACTIVE img (car (gimp-image-get-active-layer img)) psd psd 1 0)
    (let ((merged (car (gimp-image-merge-visible-layers img CLIP-TO-IMAGE))))
      (gimp-layer-resize-to-image-size merged)
      (file-png-save2 RUN-NONINTERACTIVE img merged png png 0 9 0 0 0 0 0 0 0))
    (gimp-image-delete img)))
