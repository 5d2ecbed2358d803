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
            (display (string-append "CLFX-ERROR " name ": "))
            (for-each (lambda (a) (display a) (display " ")) args)
            (newline)
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
