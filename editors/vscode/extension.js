// Starts `clankwork lsp` over stdio for .clank files. Everything else (diagnostics,
// completion, hover, definitions, formatting) comes from the server.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("clankwork");
  const command = config.get("executable") || "clankwork";
  const serverOptions = {
    run: { command, args: ["lsp"] },
    debug: { command, args: ["lsp"] },
  };
  const clientOptions = {
    documentSelector: [{ scheme: "file", language: "clank" }],
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher("**/*.clank"),
    },
  };
  client = new LanguageClient("clankwork", "Clankwork", serverOptions, clientOptions);
  client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `Clankwork: could not start \`${command} lsp\` (${err.message}). ` +
        "Set clankwork.executable to the clankwork command of your checkout, " +
        "e.g. .venv/bin/clankwork."
    );
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
