;; SPDX-License-Identifier: GPL-3.0-or-later
; clfx-tests.scm: Script-Fu v3 helpers for run-gimp-tests.sh.
; The driver defines clfx-work (the output folder) and clfx-device, loads
; this file, then the generated case list.  Every case prints one line
; "CLFX-CASE <name> <outcome>"; the driver checks the files each case
; leaves behind.  A case that fails is caught so the others still run.
(script-fu-use-v3)

(define (clfx-path name ext)
  (string-append clfx-work "/" name ext))

(define (clfx-mark name outcome)
  (display (string-append "CLFX-CASE " name " " outcome))
  (newline))

(define (clfx-first-drawable img)
  (vector-ref (gimp-image-get-selected-drawables img) 0))

; Puts the loaded image in the state a case needs.
(define (clfx-prepare img prep)
  (cond ((equal? prep "float-nonlinear")
         (gimp-image-convert-precision img PRECISION-FLOAT-NON-LINEAR))
        ((equal? prep "float-linear")
         (gimp-image-convert-precision img PRECISION-FLOAT-LINEAR))
        ((equal? prep "selection")
         (gimp-image-select-rectangle img CHANNEL-OP-REPLACE 10 8 20 16))
        ((equal? prep "a98")
         ; Another colour space whose curve (gamma 2.2) the kernels do not
         ; decode: assigned, not converted, so the pixels stay.
         (gimp-image-set-color-profile-from-file
          img "/usr/share/color/icc/ghostscript/a98.icc"))
        ((equal? prep "indexed")
         (gimp-image-convert-indexed img CONVERT-DITHER-NONE
                                     CONVERT-PALETTE-GENERATE 16 #f #f ""))
        (else #t)))

; Back to 8 bits for the PNG export (float PNG export is noisy, and the
; reference the driver compares with is 8-bit).
(define (clfx-unprepare img prep)
  (if (or (equal? prep "float-nonlinear") (equal? prep "float-linear"))
      (gimp-image-convert-precision img PRECISION-U8-NON-LINEAR)))

(define (clfx-export img name)
  (gimp-file-save RUN-NONINTERACTIVE img (clfx-path name ".png") -1))

; A resize that must succeed: writes <name>.png (the image after the
; call, canvas fitted to the layers) and <name>.json (the report-file);
; <name>.ret.json holds the returned report.
(define (clfx-resize-case name input prep target w h zoom filter addressing
                          normalized)
  (let* ((img (gimp-file-load RUN-NONINTERACTIVE input))
         (drw (clfx-first-drawable img)))
    (clfx-prepare img prep)
    (let ((report
           (catch #f
             (plug-in-clfx-resize #:run-mode RUN-NONINTERACTIVE
                                  #:image img #:drawables (vector drw)
                                  #:width w #:height h
                                  #:zoom-x zoom #:zoom-y zoom
                                  #:filter filter #:addressing addressing
                                  #:normalized-coords normalized
                                  #:target target #:device clfx-device
                                  #:validate #t
                                  #:report-file (clfx-path name ".json")))))
      (if report
          (begin
            (let ((port (open-output-file (clfx-path name ".ret.json"))))
              (display report port)
              (close-output-port port))
            (if (equal? prep "selection")
                (clfx-mark (string-append name "-selection")
                           (if (gimp-selection-is-empty img) "lost" "kept")))
            (gimp-image-resize-to-layers img)
            (clfx-unprepare img prep)
            (clfx-export img name)
            (clfx-mark name "ok"))
          (clfx-mark name "error")))
    (gimp-image-delete img)))

;  Runs thunk with TinyScheme's error hook printing the message as
; "CLFX-ERROR <name>: ..." before the error goes on to catch (which
; otherwise drops it).
(define (clfx-with-error-log name thunk)
  (let ((old-hook *error-hook*))
    (set! *error-hook*
          (lambda args
            (set! *error-hook* old-hook)
            ; One write for the whole line: the plug-in's own output
            ; (stderr) must not land in the middle of it.
            (let ((port (open-output-string)))
              (for-each (lambda (a) (display a port) (display " " port))
                        args)
              (display (string-append "CLFX-ERROR " name ": "
                                      (get-output-string port) "\n")))
            (apply old-hook args)))
    (let ((result (thunk)))
      (set! *error-hook* old-hook)
      result)))

; A call that must fail and leave the image alone: exports <name>.before.png
; and <name>.after.png around it.  call is (lambda (img drw) ...).
(define (clfx-bad-case name input prep call)
  (let* ((img (gimp-file-load RUN-NONINTERACTIVE input))
         (drw (clfx-first-drawable img)))
    (clfx-prepare img prep)
    (clfx-export img (string-append name ".before"))
    (let ((outcome (catch "refused"
                     (begin (clfx-with-error-log name (lambda () (call img drw)))
                            "accepted"))))
      (clfx-export img (string-append name ".after"))
      (clfx-mark name outcome))
    (gimp-image-delete img)))

(define (clfx-selftest-case name device)
  (let ((report (catch #f
                  (plug-in-clfx-selftest #:run-mode RUN-NONINTERACTIVE
                                         #:device device
                                         #:report-file
                                         (clfx-path name ".json")))))
    (clfx-mark name (if report "ok" "error"))))

; A self-test that must be refused; its error goes to the log (CLFX-ERROR)
; and its report-file is report.
(define (clfx-selftest-bad-case name device report)
  (let ((outcome (catch "refused"
                   (begin
                     (clfx-with-error-log name
                       (lambda ()
                         (plug-in-clfx-selftest #:run-mode RUN-NONINTERACTIVE
                                                #:device device
                                                #:report-file report)))
                     "accepted"))))
    (clfx-mark name outcome)))

; GIMP's own scale of the same input, linear interpolation: <name>.png.
(define (clfx-gimp-scale-case name input prep w h)
  (let ((img (gimp-file-load RUN-NONINTERACTIVE input)))
    (clfx-prepare img prep)
    (gimp-context-push)
    (gimp-context-set-interpolation INTERPOLATION-LINEAR)
    (gimp-image-scale img w h)
    (gimp-context-pop)
    (clfx-export img name)
    (clfx-mark name "ok")
    (gimp-image-delete img)))

; The canvas size, then each layer's size and offsets, on one line.
(define (clfx-geometry img)
  (let ((layers (gimp-image-get-layers img))
        (text (string-append (number->string (gimp-image-get-width img)) "x"
                             (number->string (gimp-image-get-height img)))))
    (let loop ((i 0))
      (if (< i (vector-length layers))
          (let* ((layer (vector-ref layers i))
                 (offsets (gimp-drawable-get-offsets layer)))
            (set! text (string-append
                        text " "
                        (number->string (gimp-drawable-get-width layer)) "x"
                        (number->string (gimp-drawable-get-height layer)) "+"
                        (number->string (car offsets)) "+"
                        (number->string (cadr offsets))))
            (loop (+ i 1)))))
    text))

; Every layer on its own, as <name>-L<i>.png.
(define (clfx-export-layers img name)
  (let ((layers (gimp-image-get-layers img)))
    (let loop ((i 0))
      (if (< i (vector-length layers))
          (let* ((layer (vector-ref layers i))
                 (copy (gimp-image-new (gimp-drawable-get-width layer)
                                       (gimp-drawable-get-height layer) RGB))
                 (copied (gimp-layer-new-from-drawable layer copy)))
            (gimp-image-insert-layer copy copied 0 0)
            (gimp-layer-set-offsets copied 0 0)
            (gimp-file-save RUN-NONINTERACTIVE copy
                            (clfx-path (string-append name "-L"
                                                      (number->string i))
                                       ".png")
                            -1)
            (gimp-image-delete copy)
            (loop (+ i 1)))))))

; A call on both layers of a two-layer image whose second apply step
; fails (the driver sets CLFX_DEV's fault): the call must fail and leave every
; layer and the canvas as they were.  call is (lambda (img drawables)
; ...).  Prints "CLFX-GEOMETRY <name> before|after <geometry>" and
; exports the layers around the call.
(define (clfx-fault-call-case name base top call)
  (let* ((img (gimp-file-load RUN-NONINTERACTIVE base))
         (layer (gimp-file-load-layer RUN-NONINTERACTIVE img top)))
    (gimp-image-insert-layer img layer 0 0)
    (gimp-layer-scale layer 40 30 #f)
    (gimp-layer-set-offsets layer 7 5)
    (clfx-export-layers img (string-append name ".before"))
    (display (string-append "CLFX-GEOMETRY " name " before "
                            (clfx-geometry img)))
    (newline)
    (let ((outcome
           (catch "refused"
             (begin
               (clfx-with-error-log name
                 (lambda ()
                   (call img (gimp-image-get-selected-drawables img))))
               "accepted"))))
      (clfx-export-layers img (string-append name ".after"))
      (display (string-append "CLFX-GEOMETRY " name " after "
                              (clfx-geometry img)))
      (newline)
      (clfx-mark name outcome))
    (gimp-image-delete img)))

; The same for a target=image resize.
(define (clfx-fault-case name base top w h)
  (clfx-fault-call-case name base top
    (lambda (img drawables)
      (plug-in-clfx-resize #:run-mode RUN-NONINTERACTIVE #:image img
                           #:drawables drawables #:width w #:height h
                           #:filter "linear" #:target "image"
                           #:device clfx-device))))

; A filter that must succeed: call is (lambda (img drw) ...) running
; plug-in-clfx-filter with its report-file at <name>.json; writes
; <name>.png (the image after the call) and <name>.ret.json (the returned
; report).  The selection stays where the case made it.
(define (clfx-filter-case name input prep call)
  (let* ((img (gimp-file-load RUN-NONINTERACTIVE input))
         (drw (clfx-first-drawable img)))
    (clfx-prepare img prep)
    (let ((report (catch #f (call img drw))))
      (if report
          (begin
            (let ((port (open-output-file (clfx-path name ".ret.json"))))
              (display report port)
              (close-output-port port))
            (clfx-unprepare img prep)
            (clfx-export img name)
            (clfx-mark name "ok"))
          (clfx-mark name "error")))
    (gimp-image-delete img)))

; An HDR image that GIMP loads itself (OpenEXR): call is (lambda (img drw)
; ...) running a procedure with its report-file at <name>.json; writes
; <name>.pfm (float, linear, as GIMP exports PFM) and <name>.ret.json.
(define (clfx-hdr-case name input call)
  (let* ((img (gimp-file-load RUN-NONINTERACTIVE input))
         (drw (clfx-first-drawable img))
         (report (catch #f (call img drw))))
    (if report
        (begin
          (let ((port (open-output-file (clfx-path name ".ret.json"))))
            (display report port)
            (close-output-port port))
          (gimp-file-save RUN-NONINTERACTIVE img (clfx-path name ".pfm") -1)
          (clfx-mark name "ok"))
        (clfx-mark name "error"))
    (gimp-image-delete img)))

; A call given as text (the dialog's Script-Fu copy), run as it is on
; input: call is (lambda (img drw) ...).  Writes <name>.png like
; clfx-resize-case; the call itself names its report file.
(define (clfx-call-case name input call)
  (let* ((img (gimp-file-load RUN-NONINTERACTIVE input))
         (drw (clfx-first-drawable img)))
    (if (catch #f (call img drw))
        (begin
          (gimp-image-resize-to-layers img)
          (clfx-export img name)
          (clfx-mark name "ok"))
        (clfx-mark name "error"))
    (gimp-image-delete img)))

; A clfx: GEGL operation applied inside GIMP's process (the module, no
; plug-in): call is (lambda (img drw) ...) running
; gimp-drawable-merge-new-filter or appending a filter.  Writes
; <name>.png; with xcf true also <name>.xcf (filters kept).
(define (clfx-gegl-case name input prep xcf call)
  (let* ((img (gimp-file-load RUN-NONINTERACTIVE input))
         (drw (clfx-first-drawable img)))
    (clfx-prepare img prep)
    (if (catch #f (clfx-with-error-log name (lambda () (call img drw) #t)))
        (begin
          (if xcf
              (gimp-xcf-save 0 img (clfx-path name ".xcf")))
          (clfx-export img name)
          (clfx-mark name "ok"))
        (clfx-mark name "error"))
    (gimp-image-delete img)))

; The XCF a clfx-gegl-case kept, opened in another GIMP: marks
; "<name>-filter <operation>" for its one filter, exports <name>.png
; (the filter applied by the projection), merges the filter into the
; layer and exports <name>-merged.png, and marks "<name> ok" when no
; filter is left.
(define (clfx-gegl-reopen-case name xcf)
  (let* ((img (gimp-file-load RUN-NONINTERACTIVE xcf))
         (drw (clfx-first-drawable img))
         (filters (gimp-drawable-get-filters drw)))
    (clfx-mark (string-append name "-filter")
               (if (= (vector-length filters) 1)
                   (gimp-drawable-filter-get-operation-name
                    (vector-ref filters 0))
                   (number->string (vector-length filters))))
    (clfx-export img name)
    (gimp-drawable-merge-filters drw)
    (clfx-export img (string-append name "-merged"))
    (clfx-mark name (if (= (vector-length (gimp-drawable-get-filters drw)) 0)
                        "ok" "kept"))
    (gimp-image-delete img)))
