;;; clank-mode.el --- Clankwork .clank files, with the clankwork language server -*- lexical-binding: t -*-

;; A small major mode for .clank files (comments, strings, declaration words) that starts
;; `clankwork lsp' through eglot: built into Emacs 29, and `M-x package-install RET eglot'
;; (or Debian's elpa-eglot) on Emacs 26.3 to 28.
;;
;; Load it from your init file:  (load "/path/to/clank-mode.el")
;; The server is the `clankwork' command on your PATH (`exec-path'); to use another one:
;;   (setq clank-lsp-command '("/path/to/checkout/.venv/bin/clankwork" "lsp"))

;;; Code:

(require 'eglot)

(defvar clank-lsp-command '("clankwork" "lsp")
  "The command that runs the Clankwork language server.")

(defvar clank-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?# "<" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?_ "w" table)
    (modify-syntax-entry ?' "w" table)
    table)
  "Syntax table of `clank-mode'.")

(defconst clank-font-lock-keywords
  `((,(regexp-opt '("pack" "include" "card" "monster" "reserve" "event" "token" "board"
                    "module" "space" "path" "rules" "resource" "way" "dragon" "sticker"
                    "passage" "contract" "patron" "goal" "campaign" "replace" "remove"
                    "change" "scenario" "expect")
                  'symbols)
     . font-lock-keyword-face)
    ("[+-][0-9]+" . font-lock-constant-face))
  "Highlighting of `clank-mode' (the language server gives the rest).")

;;;###autoload
(define-derived-mode clank-mode prog-mode "Clank"
  "Major mode for Clankwork card and board packs (.clank files)."
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+\\s-*")
  (setq-local font-lock-defaults '(clank-font-lock-keywords))
  (setq-local indent-tabs-mode nil)
  (setq-local tab-width 2))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.clank\\'" . clank-mode))

(add-to-list 'eglot-server-programs `(clank-mode . ,(lambda (&rest _) clank-lsp-command)))

(defun clank--start ()
  "Start eglot for this buffer, or say why it cannot."
  (if (executable-find (car clank-lsp-command))
      (eglot-ensure)
    (message "clank-mode: `%s' is not on your PATH; install Clankwork or set clank-lsp-command"
             (car clank-lsp-command))))

(add-hook 'clank-mode-hook #'clank--start)

(provide 'clank-mode)
;;; clank-mode.el ends here
